import type { IncomingMessage, Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTIONS_CHECKING_INTERVAL_MS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../http/server-options.ts';
import { bearer } from '../helpers/flows.ts';
import { startLiveServer, type InProcessLiveServer } from '../helpers/live-server.ts';
import { makePng } from '../helpers/png.ts';
import { waitFor } from '../helpers/wait.ts';
import { expectResponsive, openJob, readJob, type Opened } from './jobs.ts';

interface Trickle {
  /** Resolves once `head` and two pieces are out: the connection has trickled for a while. */
  trickling: Promise<void>;
  /** Whether the server still holds the connection open. */
  open(): boolean;
  /** Resolves with the status line and body the server answered and when it closed the connection. */
  cut: Promise<{ statusLine: string; body: string; closedAfterMs: number }>;
}

/** Opens a connection, sends `head` at once and then `piece` every `everyMs` until the server closes it. */
function trickle(server: InProcessLiveServer, head: string, piece: string, everyMs: number): Trickle {
  let open = true;
  let sentPieces = 0;
  let trickled!: () => void;
  const trickling = new Promise<void>((resolve) => (trickled = resolve));
  const cut = new Promise<{ statusLine: string; body: string; closedAfterMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket: Socket = connect(server.port, server.host);
    let received = '';
    const send = (text: string) => {
      if (!socket.writable) return;
      socket.write(text, () => {
        if (text === piece && ++sentPieces === 2) trickled();
      });
    };
    const timer = setInterval(() => send(piece), everyMs);
    socket.on('connect', () => send(head));
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open = false;
      clearInterval(timer);
      resolve({
        statusLine: received.split('\r\n')[0]!,
        body: received.slice(received.indexOf('\r\n\r\n') + 4),
        closedAfterMs: performance.now() - started,
      });
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server never closed the connection'));
    }, REQUEST_TIMEOUT_MS + 30_000).unref();
  });
  return { trickling, open: () => open, cut };
}

/** Resolves once the server has read the head of a request for `path`, so its handler runs. */
function requestArrives(server: InProcessLiveServer, path: string): Promise<void> {
  const http = server.server as Server;
  return new Promise((resolve) => {
    const onRequest = (request: IncomingMessage) => {
      if (request.url !== path) return;
      http.off('request', onRequest);
      resolve();
    };
    http.on('request', onRequest);
  });
}

/**
 * Sends a body of `upTo` bytes in 64 KiB pieces, chunked unless a Content-Length is among the
 * headers, and stops as soon as the server answers; resolves with the answer, how long it took
 * and how much the client had sent by then. A raw socket, so the server closing the connection
 * while the client still writes loses nothing of the answer.
 */
function flood(
  server: InProcessLiveServer,
  path: string,
  headers: Record<string, string>,
  upTo: number,
  framing: { before?: Buffer; after?: Buffer } = {},
): Promise<{ status: number; body: any; ms: number; sentBytes: number }> {
  const chunked = !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${server.host}:${server.port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(chunked ? ['Transfer-Encoding: chunked'] : []),
    '',
    '',
  ].join('\r\n');
  const frame = (data: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
  const piece = frame(Buffer.alloc(64 * 1024, 0x41));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(server.port, server.host);
    let received = Buffer.alloc(0);
    let sentBytes = 0;
    let answer: { status: number; body: any; ms: number; sentBytes: number } | undefined;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1] ?? NaN);
      if (answer || split < 0 || Buffer.byteLength(text.slice(split + 4)) < length) return;
      const status = Number(text.split(' ')[1]);
      answer = { status, body: JSON.parse(text.slice(split + 4)), ms: performance.now() - started, sentBytes };
      socket.destroy();
      resolve(answer);
    });
    socket.on('close', () => answer ?? reject(new Error(`closed without a whole answer: ${received}`)));
    const pump = () => {
      while (!answer && socket.writable && sentBytes < upTo) {
        sentBytes += 64 * 1024;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      const end = [...(framing.after ? [frame(framing.after)] : []), ...(chunked ? [Buffer.from('0\r\n\r\n')] : [])];
      if (!answer && socket.writable) socket.write(Buffer.concat(end));
    };
    socket.on('connect', () => {
      socket.write(head);
      if (framing.before) socket.write(frame(framing.before));
      pump();
    });
  });
}

describe.concurrent('slow and oversized requests, with the server settings server.ts uses', () => {
  let server: InProcessLiveServer;
  // Cut-off bodies are the client's doing: none may be logged as a fault of the service.
  const errors: Record<string, unknown>[] = [];
  const requestLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    server = await startLiveServer({
      log: {
        info: (fields) => void (fields.msg === 'request' && requestLines.push(fields)),
        warn() {},
        error: (fields) => void errors.push(fields),
      },
    });
  }, 60_000);
  afterAll(() => server?.close());

  const uploadPath = (job: Opened) => `/api/agent/v1/jobs/${job.id}/submissions`;
  const uploadHead = (job: Opened, headers: string[]) =>
    [
      `POST ${uploadPath(job)} HTTP/1.1`,
      `Host: ${server.host}:${server.port}`,
      `Authorization: Bearer ${job.secret}`,
      ...headers,
      '',
      '',
    ].join('\r\n');

  it('cuts off clients that trickle their headers with 408 once the headers timeout passes, and answers others meanwhile', async () => {
    const head = `POST /api/agent/v1/jobs HTTP/1.1\r\nHost: ${server.host}:${server.port}\r\n`;
    const slow = Array.from({ length: 20 }, () => trickle(server, head, 'X-Slow: 1\r\n', 500));
    await Promise.all(slow.map((s) => s.trickling));
    await expectResponsive(server);
    expect(slow.every((s) => s.open())).toBe(true);
    for (const cut of await Promise.all(slow.map((s) => s.cut))) {
      expect(cut.statusLine).toBe('HTTP/1.1 408 Request Timeout');
      // In the contract's envelope, saying the limit (Node's own answer has no body).
      expect(JSON.parse(cut.body).error).toMatchObject({
        code: 'INVALID_REQUEST',
        message: expect.stringContaining(`headers must arrive within ${HEADERS_TIMEOUT_MS / 1000} s`),
      });
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(cut.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CONNECTIONS_CHECKING_INTERVAL_MS + 2_000);
    }
    await expectResponsive(server);
  }, 60_000);

  it(
    'cuts off an upload whose body trickles in once the request timeout passes, stores nothing and answers others meanwhile',
    async () => {
      const job = await openJob(server);
      const head = uploadHead(job, ['Content-Type: image/png', 'Content-Length: 1000000']);
      const arrived = requestArrives(server, uploadPath(job));
      const slow = trickle(server, head, 'x'.repeat(100), 250);
      await arrived;
      await slow.trickling;
      await expectResponsive(server);
      expect(slow.open()).toBe(true);
      const cut = await slow.cut;
      expect(cut.statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(cut.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CONNECTIONS_CHECKING_INTERVAL_MS + 2_000);
      const after = await readJob(server, job);
      expect([after.latestSubmission, after.limits.submissionsLeft]).toEqual([null, 10]);
      await expectResponsive(server);
    },
    REQUEST_TIMEOUT_MS + 60_000,
  );

  it('keeps nothing of an upload whose client disconnects partway through the body, and answers others', async () => {
    const job = await openJob(server);
    const arrived = requestArrives(server, uploadPath(job));
    const socket = connect(server.port, server.host);
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(uploadHead(job, ['Content-Type: image/png', 'Content-Length: 1000000']));
    socket.write(makePng().subarray(0, 2_000));
    await arrived;
    socket.destroy();
    await waitFor('the server to finish the cut-off upload', () =>
      requestLines.some((line) => line.path === uploadPath(job)),
    );
    const after = await readJob(server, job);
    expect([after.latestSubmission, after.limits.submissionsLeft]).toEqual([null, 10]);
    await expectResponsive(server);
    expect(errors).toEqual([]);
  });

  const png = { 'content-type': 'image/png' };
  const boundary = 'flood-boundary-3f9a1c';
  const form = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const partHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const partTail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const FLOOD = 64 * 1024 * 800; // 52 MB, far past the cap
  it.each([
    ['a raw body with Content-Length', { ...png, 'content-length': String(FLOOD) }, {}],
    ['a raw chunked body (no Content-Length)', png, {}],
    [
      'a multipart body with Content-Length',
      { ...form, 'content-length': String(FLOOD + partHead.length + partTail.length) },
      { before: partHead, after: partTail },
    ],
    ['a multipart chunked body (no Content-Length)', form, { before: partHead, after: partTail }],
  ] as const)(
    'refuses %s over 6,000,000 bytes with 413 FILE_TOO_LARGE before the client has sent it all',
    async (_kind, headers, framing) => {
      const job = await openJob(server);
      const answer = await flood(
        server,
        `/api/agent/v1/jobs/${job.id}/submissions`,
        { ...headers, ...bearer(job.secret) },
        FLOOD,
        framing,
      );
      expect(answer.status).toBe(413);
      expect(answer.body.error).toMatchObject({
        code: 'FILE_TOO_LARGE',
        message: expect.stringContaining('6,000,000'),
      });
      expect(answer.ms).toBeLessThan(5_000);
      expect(answer.sentBytes).toBeLessThan(FLOOD / 2);
      const after = await readJob(server, job);
      expect([after.latestSubmission, after.limits.submissionsLeft]).toEqual([null, 10]);
      await expectResponsive(server);
    },
    60_000,
  );
});
