import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, jobWithReadySubmission } from './helpers/answers.ts';
import { bearer, getJob, openJob } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();
const NO_SUCH_JOB_BODY = '{"error":{"code":"NOT_FOUND","message":"No such job."}}';

describe('job authentication', () => {
  it('answers a missing, wrong or foreign secret and an unknown or malformed id with byte-identical 404s', async () => {
    const job = await jobWithReadySubmission(service, 1);
    const other = await openJob(service);
    const png = makePng({ width: 300, height: 300, seed: 9 });
    const cases: [string, string, Record<string, string>][] = [
      ['missing secret', job.id, {}],
      ['empty bearer', job.id, { authorization: 'Bearer ' }],
      ['wrong secret', job.id, bearer(`ajs_${'A'.repeat(43)}`)],
      ['bare secret without scheme', job.id, { authorization: job.secret }],
      ["another job's secret", job.id, bearer(other.secret)],
      ['unknown UUID', randomUUID(), bearer(job.secret)],
      ['malformed id', 'not-a-uuid', bearer(job.secret)],
      ['malformed id, no secret', '12345', {}],
    ];
    const bodies = new Set<string>();
    for (const [label, id, headers] of cases) {
      const requests: [string, RequestInit][] = [
        [`/jobs/${id}`, { headers }],
        [`/jobs/${id}`, { method: 'DELETE', headers }],
        [
          `/jobs/${id}/submissions`,
          {
            method: 'POST',
            headers: { 'content-type': 'image/png', ...headers },
            body: png as Uint8Array<ArrayBuffer>,
          },
        ],
        [`/jobs/${id}/submissions/1`, { headers }],
        [`/jobs/${id}/submissions/1/cutouts.svg`, { headers }],
        [`/jobs/${id}/submissions/1/preview.svg`, { headers }],
      ];
      for (const [path, init] of requests) {
        const response = await service.api(path, init);
        const where = `${label}: ${init.method ?? 'GET'} ${path}`;
        expect(response.status, where).toBe(404);
        expect(response.headers.get('content-type'), where).toBe(JSON_TYPE);
        const text = await response.text();
        expect(text, where).toBe(NO_SUCH_JOB_BODY);
        bodies.add(text);
      }
    }
    expect([...bodies]).toEqual([NO_SUCH_JOB_BODY]);
    // Nothing was cancelled or uploaded by the refused requests.
    const after = await getJob(service, job);
    expect(after.status).toBe('ready');
    expect(after.latestSubmission.no).toBe(1);
    expect(service.pipeline.runs).toBe(1);
  });

  it('accepts the Bearer scheme word in any case', async () => {
    const job = await openJob(service);
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const response = await service.api(`/jobs/${job.id}`, { headers: { authorization: `${scheme} ${job.secret}` } });
      expect(response.status, scheme).toBe(200);
      expect(((await response.json()) as any).job.id).toBe(job.id);
    }
  });
});
