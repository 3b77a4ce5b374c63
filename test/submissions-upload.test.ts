import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { submissionEnvelopeSchema } from '../core/contract/submission.ts';
import { bearer, errorOf, getJob, openJob, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { multipart } from './helpers/multipart.ts';
import { chunk, makePng, pngWithDeclaredSize } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

let service: TestService;
let job: OpenedJob;
beforeEach(async () => {
  service = await startService();
  job = await openJob(service);
});
afterEach(async () => {
  await service.close();
  removeDir(service.dir);
});

const small = (seed = 1) => makePng({ width: 300, height: 300, seed });
const send = (body: BodyInit, contentType?: string, secret = job.secret) =>
  service.api(`/jobs/${job.id}/submissions`, {
    method: 'POST',
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...bearer(secret) },
    body,
  });
const sendMultipart = (parts: Parameters<typeof multipart>[0]) => {
  const { body, contentType } = multipart(parts);
  return send(body as unknown as BodyInit, contentType);
};
const left = async () => (await getJob(service, job)).limits.submissionsLeft;

describe('POST /jobs/{jobId}/submissions bodies', () => {
  it('accepts a raw image/png body and answers the ready submission', async () => {
    const response = await uploadPng(service, job, small());
    expect(response.status).toBe(200);
    const body: any = await response.json();
    expect(() => submissionEnvelopeSchema.parse(body)).not.toThrow();
    const s = body.submission;
    expect(s).toMatchObject({ no: 1, status: 'ready', validation: { valid: true, errors: [] } });
    expect(s.files).toEqual({
      cutoutsSvg: `http://localhost:8787/api/agent/v1/jobs/${job.id}/submissions/1/cutouts.svg`,
      previewSvg: `http://localhost:8787/api/agent/v1/jobs/${job.id}/submissions/1/preview.svg`,
    });
    expect(s.approval.url).toMatch(/^http:\/\/localhost:8787\/a\/[1-9A-HJ-NP-Za-km-z]{12}$/);
    expect(s.approval.status).toBe('pending');
    expect(s.approval.expiresAt).toBe(job.body.job.expiresAt);
    expect(s.price).toEqual(job.body.job.price);
    expect(Number.isInteger(s.durationMs)).toBe(true);
  });

  it('accepts a multipart image part typed image/png', async () => {
    const response = await sendMultipart([{ name: 'image', filename: 'd.png', type: 'image/png', data: small() }]);
    expect(response.status).toBe(200);
  });

  it('accepts an untyped multipart part (none, octet-stream, text/plain) when the bytes are a PNG', async () => {
    const types = [undefined, 'application/octet-stream', 'text/plain'];
    for (const [i, type] of types.entries()) {
      const response = await sendMultipart([{ name: 'image', filename: 'd.png', type, data: small(10 + i) }]);
      expect(response.status).toBe(200);
    }
  });

  it('answers INVALID_FILE for an untyped part that is not a PNG', async () => {
    const e = await errorOf(await sendMultipart([{ name: 'image', filename: 'd', data: 'GIF89a not a png' }]));
    expect([e.status, e.code]).toEqual([400, 'INVALID_FILE']);
  });

  it('answers 415 for a part typed as another format', async () => {
    const e = await errorOf(
      await sendMultipart([{ name: 'image', filename: 'd.jpg', type: 'image/jpeg', data: small() }]),
    );
    expect([e.status, e.code]).toEqual([415, 'UNSUPPORTED_FORMAT']);
  });

  it('answers 415 for any other body type or none', async () => {
    for (const type of ['image/jpeg', 'application/json', 'text/plain', 'application/octet-stream', undefined]) {
      const e = await errorOf(await send(small() as unknown as BodyInit, type));
      expect([type, e.status, e.code]).toEqual([type, 415, 'UNSUPPORTED_FORMAT']);
    }
  });

  it('answers 400 INVALID_REQUEST for an empty body, a missing image field and an unparsable multipart body', async () => {
    const empty = await errorOf(await send(new Uint8Array(0) as unknown as BodyInit, 'image/png'));
    expect([empty.status, empty.code]).toEqual([400, 'INVALID_REQUEST']);
    const missing = await errorOf(
      await sendMultipart([{ name: 'file', filename: 'd.png', type: 'image/png', data: small() }]),
    );
    expect([missing.status, missing.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(missing.message).toContain('"image"');
    const textField = await errorOf(await sendMultipart([{ name: 'image', data: 'hello' }]));
    expect([textField.status, textField.code]).toEqual([400, 'INVALID_REQUEST']);
    const broken = await errorOf(await send('this is not multipart', 'multipart/form-data; boundary=zzz'));
    expect([broken.status, broken.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('answers 413 FILE_TOO_LARGE for a raw body over 6,000,000 bytes, read as a capped stream', async () => {
    const big = new Uint8Array(6_000_001);
    big.set(small().subarray(0, 8));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 1_000_000) controller.enqueue(big.subarray(i, i + 1_000_000));
        controller.close();
      },
    });
    const response = await service.api(`/jobs/${job.id}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', ...bearer(job.secret) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const e = await errorOf(response);
    expect([e.status, e.code]).toEqual([413, 'FILE_TOO_LARGE']);
  });

  it('answers 413 for a multipart file over 6,000,000 bytes', async () => {
    const e = await errorOf(
      await sendMultipart([{ name: 'image', filename: 'd.png', type: 'image/png', data: new Uint8Array(6_000_001) }]),
    );
    expect([e.status, e.code]).toEqual([413, 'FILE_TOO_LARGE']);
  });

  it('accepts a PNG of exactly 6,000,000 bytes', async () => {
    const png = small();
    const iend = png.subarray(png.length - 12);
    const body = png.subarray(0, png.length - 12);
    const padding = chunk('paDd', Buffer.alloc(6_000_000 - png.length - 12));
    const exact = Buffer.concat([body, padding, iend]);
    expect(exact.length).toBe(6_000_000);
    expect((await uploadPng(service, job, exact)).status).toBe(200);
  });

  it('answers 413 from Content-Length alone, before reading the body, on a real socket', async () => {
    const server = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/agent/v1/jobs/${job.id}/submissions`,
            headers: { 'content-type': 'image/png', 'content-length': '7000000', ...bearer(job.secret) },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write(small().subarray(0, 100)); // a few bytes, then wait: the answer must not need the rest
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe('FILE_TOO_LARGE');
    } finally {
      server.close();
    }
  });
});

describe('POST /jobs/{jobId}/submissions file checks', () => {
  it('answers INVALID_FILE for bytes that are not a PNG and for a corrupt IHDR', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(400)]);
    expect((await errorOf(await uploadPng(service, job, jpeg))).code).toBe('INVALID_FILE');
    const corrupt = Buffer.from(small());
    corrupt[20] = (corrupt[20] ?? 0) ^ 0xff; // inside IHDR: its CRC no longer matches
    const e = await errorOf(await uploadPng(service, job, corrupt));
    expect([e.status, e.code]).toEqual([400, 'INVALID_FILE']);
  });

  it('answers IMAGE_TOO_SMALL under 256 px on the short side', async () => {
    const e = await errorOf(await uploadPng(service, job, makePng({ width: 1000, height: 255 })));
    expect([e.status, e.code]).toEqual([400, 'IMAGE_TOO_SMALL']);
    expect((await uploadPng(service, job, makePng({ width: 1000, height: 256 }))).status).toBe(200);
  });

  it('answers IMAGE_TOO_LARGE over 8192 px on the long side or over 24,000,000 pixels', async () => {
    for (const [w, h] of [
      [8193, 1024],
      [5000, 4801],
    ] as const) {
      const e = await errorOf(await uploadPng(service, job, pngWithDeclaredSize(w, h)));
      expect([w, h, e.status, e.code]).toEqual([w, h, 400, 'IMAGE_TOO_LARGE']);
    }
  });

  it('does not count refused files and checks the secret first', async () => {
    await uploadPng(service, job, Buffer.from('not a png at all'));
    await uploadPng(service, job, makePng({ width: 100, height: 100 }));
    expect(await left()).toBe(10);
    expect(service.pipeline.runs).toBe(0);
    const e = await errorOf(await send(Buffer.from('nope') as unknown as BodyInit, 'text/plain', 'ajs_wrong'));
    expect([e.status, e.message]).toEqual([404, 'No such job.']);
  });
});
