import { describe, expect, it } from 'vitest';
import { JSON_TYPE, jobWithFailedSubmission, jobWithReadySubmission } from './helpers/answers.ts';
import { bearer, errorOf } from './helpers/flows.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

describe('submission numbers and files', () => {
  it('answers an unknown or malformed submission number with 404 No such submission.', async () => {
    const job = await jobWithReadySubmission(service);
    for (const no of ['2', '9999', '0', '10000', '-1', 'abc', '1.5', '01x', '%201']) {
      for (const suffix of ['', '/cutouts.svg', '/preview.svg']) {
        const path = `/jobs/${job.id}/submissions/${no}${suffix}`;
        const response = await service.api(path, { headers: bearer(job.secret) });
        expect(response.headers.get('content-type'), path).toBe(JSON_TYPE);
        const e = await errorOf(response);
        expect([e.status, e.code, e.message], path).toEqual([404, 'NOT_FOUND', 'No such submission.']);
      }
    }
  });

  it('answers 404 No such file for the SVGs of a failed_validation submission', async () => {
    const job = await jobWithFailedSubmission(service);
    const read = await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).submission.status).toBe('failed_validation');
    for (const file of ['cutouts.svg', 'preview.svg']) {
      const response = await service.api(`/jobs/${job.id}/submissions/1/${file}`, { headers: bearer(job.secret) });
      expect(response.headers.get('content-type'), file).toBe(JSON_TYPE);
      const e = await errorOf(response);
      expect([e.status, e.code, e.message], file).toEqual([404, 'NOT_FOUND', 'No such file for this submission.']);
    }
  });

  it('serves the SVGs of a ready submission as image/svg+xml, never cached', async () => {
    const job = await jobWithReadySubmission(service);
    const submission = (
      (await (await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) })).json()) as any
    ).submission;
    for (const file of ['cutouts', 'preview']) {
      const response = await service.api(`/jobs/${job.id}/submissions/1/${file}.svg`, { headers: bearer(job.secret) });
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')!.split(';')[0]!.trim(), file).toBe('image/svg+xml');
      expect(response.headers.get('cache-control'), file).toBe('no-store');
      expect(await response.text(), file).toMatch(/^<svg[\s>]/);
      expect(submission.files[`${file}Svg`], file).toBe(
        `http://localhost:8787/api/agent/v1/jobs/${job.id}/submissions/1/${file}.svg`,
      );
    }
  });
});
