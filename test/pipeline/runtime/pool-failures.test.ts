import { afterEach, describe, expect, it } from 'vitest';
import { createPipelinePool } from '../../../core/pipeline/runtime/worker-pool.ts';
import { bearer, errorOf, getJob, openJob, uploadPng } from '../../helpers/flows.ts';
import { makePng } from '../../helpers/png.ts';
import { removeDir, startService, type TestService } from '../../helpers/service.ts';

let service: TestService | undefined;
let closePool: (() => Promise<void>) | undefined;
afterEach(async () => {
  await service?.close();
  if (service) removeDir(service.dir);
  await closePool?.();
  service = undefined;
});

async function serviceWithWorker(name: string, timeoutMs: number) {
  const pool = createPipelinePool({ size: 1, timeoutMs, workerUrl: new URL(`./workers/${name}.ts`, import.meta.url) });
  closePool = pool.close;
  service = await startService({ pipelineFn: pool.pipeline });
  return service;
}

describe('a stuck or crashing pipeline worker, through the upload route', () => {
  // The crash case gets a long timeout: its worker must start before it can die.
  it.each([
    ['hang', 'VECTORIZER_UNAVAILABLE', 400],
    ['crash', 'PROCESSING_FAILED', 20_000],
  ] as const)(
    'a %s worker answers 502 %s, stores failed_processing, counts nothing and quotes no internals',
    async (worker, code, timeoutMs) => {
      const s = await serviceWithWorker(worker, timeoutMs);
      const job = await openJob(s);
      const response = await uploadPng(s, job, makePng({ width: 300, height: 300 }));
      const e = await errorOf(response);
      expect([e.status, e.code, e.body.error.retryable]).toEqual([502, code, true]);
      expect(response.headers.get('retry-after')).toBe('30');
      expect(JSON.stringify(e.body)).not.toMatch(/worker|potrace|tracer said|ms\b|exit/i);
      const stored: any = await (await s.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) })).json();
      expect(stored.submission.status).toBe('failed_processing');
      expect(stored.submission.validation.errors[0]).toMatchObject({ code, retryable: true });
      expect((await getJob(s, job)).limits.submissionsLeft).toBe(10);
    },
  );
});
