import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../core/urls.ts';
import { LINGER_BOUNDS } from '../http/lingering-close.ts';
import { listen } from '../http/server-options.ts';
import { bearer, braceletBody, jsonInit } from './helpers/flows.ts';
import { startLiveServer, type InProcessLiveServer } from './helpers/live-server.ts';
import { closedByServer, readAnswer, slowUpload, type SlowUpload } from './helpers/slow-upload.ts';

/**
 * Uploads the service refuses before it has read their body, sent by clients that read nothing
 * until they have sent it all, over real HTTP to the service as `server.ts` serves it. Closing the
 * connection under such a client resets it, and a reset can take the unread answer with it.
 */
let server: InProcessLiveServer;
let job: { id: string; secret: string };
beforeAll(async () => {
  server = await startLiveServer();
  const opened: any = await (await server.api('/jobs', jsonInit(braceletBody))).json();
  job = { id: opened.job.id, secret: opened.credentials.jobSecret };
});
afterAll(async () => {
  await server?.close();
});

const MB = 1_000_000;
/** Over the 6,000,000-byte cap, sent at 4 MB/s: the client is still sending seconds after the refusal. */
const overCap = (options: Partial<SlowUpload> = {}): SlowUpload => ({
  port: server.port,
  path: `${API_BASE_PATH}/jobs/${job.id}/submissions`,
  headers: bearer(job.secret),
  fileBytes: 8 * MB,
  bytesPerSecond: 4 * MB,
  ...options,
});

const envelopeOf = (body: string) => (JSON.parse(body) as { error: Record<string, unknown> }).error;

describe('uploads refused before their body is read, answered to a client still sending', () => {
  it('a body declared over the cap: the client reads 413 FILE_TOO_LARGE, and its connection serves the next request', async () => {
    const { answer, error, socket } = await slowUpload(overCap());
    expect(error).toBeUndefined();
    expect(answer?.status).toBe(413);
    expect(answer?.headers['content-type']).toMatch(/^application\/json/);
    expect(envelopeOf(answer!.body)).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 6,000,000 bytes.',
      agent_instruction: expect.any(String),
    });
    socket.write(`GET ${API_BASE_PATH}/capabilities HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
    expect((await readAnswer(socket)).status).toBe(200);
    socket.destroy();
  });

  it('a chunked body streamed past the cap: the client reads 413 FILE_TOO_LARGE', async () => {
    // Its rest (14 MB) is more than the kernels' buffers hold: the server has to go on reading it.
    const { answer, error, socket } = await slowUpload(
      overCap({ chunked: true, fileBytes: 20 * MB, bytesPerSecond: 8 * MB }),
    );
    expect(error).toBeUndefined();
    expect(answer?.status).toBe(413);
    expect(envelopeOf(answer!.body)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    socket.destroy();
  });

  it('a job the secret does not open, refused before the body: the client reads the 404', async () => {
    const { answer, error, socket } = await slowUpload(overCap({ fileBytes: 3 * MB, headers: bearer('ajs_wrong') }));
    expect(error).toBeUndefined();
    expect(answer?.status).toBe(404);
    expect(envelopeOf(answer!.body)).toEqual({ code: 'NOT_FOUND', message: 'No such job.' });
    socket.destroy();
  });

  it('four such uploads at once each read their 413; asked to close, the server closes each once its body is in', async () => {
    const outcomes = await Promise.all(
      [false, true, false, true].map((chunked) =>
        slowUpload(overCap({ chunked, headers: { ...bearer(job.secret), connection: 'close' } })),
      ),
    );
    for (const { answer, error } of outcomes) {
      expect(error).toBeUndefined();
      expect([answer?.status, answer?.headers.connection]).toEqual([413, 'close']);
      expect(envelopeOf(answer!.body)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    }
    await Promise.all(outcomes.map(({ socket }) => closedByServer(socket)));
  });

  it('a client that goes on sending far past the drain bound is cut off', async () => {
    const { sent, answer, socket } = await slowUpload(overCap({ fileBytes: 500 * MB, bytesPerSecond: Infinity }));
    expect(answer).toBeUndefined();
    expect(socket.destroyed).toBe(true);
    // The bound read and dropped after the answer, plus what the two kernels' buffers held.
    expect(sent).toBeLessThan(LINGER_BOUNDS.maxBytes + 32 * MB);
  });

  it('a client that stops sending partway is cut off once the drain time bound passes', async () => {
    const maxMs = 300;
    const short = listen({
      fetch: server.service.app.fetch,
      port: 0,
      hostname: '127.0.0.1',
      linger: { ...LINGER_BOUNDS, maxMs },
    });
    await new Promise((resolve) => short.once('listening', resolve));
    try {
      const socket = connect((short.address() as AddressInfo).port, '127.0.0.1');
      socket.write(
        [
          `POST ${API_BASE_PATH}/jobs/${job.id}/submissions HTTP/1.1`,
          'host: 127.0.0.1',
          `authorization: Bearer ${job.secret}`,
          'content-type: image/png',
          `content-length: ${8 * MB}`,
          '',
          'a few bytes of the 8 MB, then nothing',
        ].join('\r\n'),
      );
      expect((await readAnswer(socket)).status).toBe(413);
      const answered = performance.now();
      await closedByServer(socket);
      // Long before the request timeout (60 s) would have ended it.
      expect(performance.now() - answered).toBeLessThan(maxMs + 5_000);
    } finally {
      await new Promise((resolve) => (short as Server).close(resolve));
    }
  });
});
