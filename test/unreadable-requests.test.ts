import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, braceletBody, jsonInit } from './helpers/flows.ts';
import { startLiveServer, type InProcessLiveServer } from './helpers/live-server.ts';
import { makePng } from './helpers/png.ts';

/** What came back on a raw connection, read until the server closed it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends `bytes` on a new connection, closes the client's side when `end`, and reads the answer until the server closes. */
function sendRaw(server: InProcessLiveServer, bytes: Buffer, end: boolean): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, server.host);
    const chunks: Buffer[] = [];
    socket.on('connect', () => (end ? socket.end(bytes) : socket.write(bytes)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const body = text.slice(split + 4);
      // Node's own answer has no body: kept as text, so that the assertions say what came back.
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.startsWith('{') ? JSON.parse(body) : body,
      });
    });
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

describe('requests Node cannot read are answered in the contract envelope', () => {
  let server: InProcessLiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
  }, 60_000);
  afterAll(() => server?.close());

  const expectEnvelope = (answer: RawAnswer, status: number, message: RegExp) => {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['connection']).toBe('close');
    // As every answer of the service carries them (security-headers.ts).
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(answer.body).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        message: expect.stringMatching(message),
        agent_instruction: expect.any(String),
      },
    });
  };

  it('answers an upload whose client closes its side before the declared end with 400 INVALID_REQUEST, and stores nothing', async () => {
    const response = await server.api('/jobs', jsonInit(braceletBody));
    const opened: any = await response.json();
    const job = { id: opened.job.id as string, secret: opened.credentials.jobSecret as string };
    const head = [
      `POST /api/agent/v1/jobs/${job.id}/submissions HTTP/1.1`,
      `Host: ${server.host}:${server.port}`,
      `Authorization: Bearer ${job.secret}`,
      'Content-Type: image/png',
      'Content-Length: 100000',
      '',
      '',
    ].join('\r\n');
    const answer = await sendRaw(server, Buffer.concat([Buffer.from(head), makePng().subarray(0, 2_000)]), true);
    expectEnvelope(answer, 400, /ended before its declared end/);
    expect(answer.body.error.agent_instruction).toMatch(/whole request again/);
    const read = await server.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
    const after: any = ((await read.json()) as any).job;
    expect([after.latestSubmission, after.limits.submissionsLeft]).toEqual([null, 10]);
  });

  it('answers a request line that is not HTTP with 400 INVALID_REQUEST', async () => {
    const answer = await sendRaw(server, Buffer.from('HELLO /jobs HTTP/9.9\r\n\r\n'), false);
    expectEnvelope(answer, 400, /could not be read as HTTP\/1\.1/);
  });

  it('answers headers over the size limit with 431 INVALID_REQUEST', async () => {
    const head = `GET /api/agent/v1/capabilities HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(40_000)}\r\n\r\n`;
    const answer = await sendRaw(server, Buffer.from(head), false);
    expectEnvelope(answer, 431, /headers are larger/);
  });

  it('still answers everything else after them', async () => {
    const response = await server.api('/capabilities');
    expect(response.status).toBe(200);
  });
});
