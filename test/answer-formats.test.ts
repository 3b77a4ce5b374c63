import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, jobWithReadySubmission } from './helpers/answers.ts';
import { bearer, jsonInit, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

describe('content types', () => {
  it('sends every JSON answer as application/json; charset=utf-8', async () => {
    const ready = await jobWithReadySubmission(service, 1);
    const failedPng = makePng({ width: 300, height: 300, seed: 5 });
    service.pipeline.script(failedPng, 'invalid');
    const auth = { headers: bearer(ready.secret) };
    const responses: [string, Response][] = [
      ['capabilities', await service.api('/capabilities')],
      ['201 job', await service.api('/jobs', jsonInit({ productType: 'ring', size: { usRingSize: 7 }, widthMm: 6 }))],
      ['400 job', await service.api('/jobs', jsonInit({ productType: 'necklace' }))],
      ['job', await service.api(`/jobs/${ready.id}`, auth)],
      ['submission', await service.api(`/jobs/${ready.id}/submissions/1`, auth)],
      ['422 upload', await uploadPng(service, ready, failedPng)],
      ['404 job', await service.api(`/jobs/${randomUUID()}`, auth)],
      ['404 endpoint', await service.api('/nope')],
      ['405', await service.api('/capabilities', { method: 'PUT' })],
      ['415 upload', await service.api(`/jobs/${ready.id}/submissions`, { method: 'POST', ...auth, body: 'x' })],
      ['cancel', await service.api(`/jobs/${ready.id}`, { method: 'DELETE', ...auth })],
    ];
    for (const [label, response] of responses) {
      expect(response.headers.get('content-type'), label).toBe(JSON_TYPE);
      const text = await response.text();
      expect(() => JSON.parse(text), label).not.toThrow();
    }
    expect(responses.map(([, r]) => r.status)).toEqual([200, 201, 400, 200, 200, 422, 404, 404, 405, 415, 200]);
  });
});

describe('unexpected failure', () => {
  it('answers 500 PROCESSING_FAILED with Retry-After 30 and no internals when the database fails', async () => {
    const job = await openJob(service);
    service.db.close();
    for (const [path, init] of [
      [`/jobs/${job.id}`, { headers: bearer(job.secret) }],
      [`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) }],
      [`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) }],
    ] as [string, RequestInit][]) {
      const response = await service.api(path, init);
      expect(response.status, path).toBe(500);
      expect(response.headers.get('content-type'), path).toBe(JSON_TYPE);
      expect(response.headers.get('retry-after'), path).toBe('30');
      const text = await response.text();
      const body = JSON.parse(text);
      expect(Object.keys(body), path).toEqual(['error']);
      expect(body.error.code, path).toBe('PROCESSING_FAILED');
      expect(body.error.retryable, path).toBe(true);
      expect(typeof body.error.message, path).toBe('string');
      expect(body.error.agent_instruction, path).toContain('30');
      expect(Object.keys(body.error).sort(), path).toEqual(['agent_instruction', 'code', 'message', 'retryable']);
      // Nothing from inside: no stack frames, no driver or SQL text, no file paths.
      for (const leak of [
        /\bat\s+\S+\s+\(/,
        /Error:/,
        /libsql/i,
        /sqlite/i,
        /SELECT|INSERT/,
        /closed/i,
        /\.ts\b/,
        /\/work\//,
      ]) {
        expect(text, `${path} ${leak}`).not.toMatch(leak);
      }
    }
  });
});
