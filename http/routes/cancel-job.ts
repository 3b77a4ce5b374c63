import { cancelledSchema } from '../../core/index.ts';
import { ref } from '../openapi/components.ts';
import { jobPath, noSuchJob, withSecret } from '../openapi/operation.ts';
import { jsonAnswer, refusal, unexpected } from '../openapi/responses.ts';
import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

export const cancelJob = defineRoute({
  method: 'DELETE',
  path: '/jobs/:jobId',
  openapi: () => ({
    operationId: 'cancelJob',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description:
      'Cancels an open, ready or declined job: its stored source images and submissions are deleted. Repeating it answers 200. The status change is a compare-and-set, so it cannot undo an approval that landed at the same moment.',
    security: withSecret,
    parameters: jobPath,
    responses: {
      200: jsonAnswer('Cancelled (also when it already was).', ref(cancelledSchema)),
      404: noSuchJob(),
      409: refusal(409, ['JOB_LOCKED', 'JOB_EXPIRED'], 'The job is approved (locked) or expired.'),
      500: unexpected(),
    },
  }),
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const result = await env.core.cancelJob(job);
      return result.ok ? answer(cancelledSchema, 200, { ok: true }) : errorResponse(result.error);
    }),
});
