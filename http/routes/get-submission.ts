import { submissionEnvelopeSchema } from '../../core/index.ts';
import { ref } from '../openapi/components.ts';
import { noSuchJob, submissionPath, withSecret } from '../openapi/operation.ts';
import { jsonAnswer, unexpected } from '../openapi/responses.ts';
import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

export const getSubmission = defineRoute({
  method: 'GET',
  path: '/jobs/:jobId/submissions/:no',
  openapi: () => ({
    operationId: 'getSubmission',
    tag: 'Submissions',
    summary: 'Read one submission',
    description:
      'Always 200 with the stored outcome in any status, never recomputed: for ready and failed_validation what the upload returned, with approval as the job is now; for failed_processing one finding with retryable true; while processing, empty findings and null geometry, files, approval and durationMs. engine records the SHA-256 of the uploaded bytes, the engine version and the parameters the upload was analysed under (null on submissions stored before it was recorded). Works in every job state (after a cancel the submissions are deleted: 404).',
    security: withSecret,
    parameters: submissionPath,
    responses: {
      200: jsonAnswer('The submission.', ref(submissionEnvelopeSchema)),
      404: noSuchJob('; unknown number: "No such submission."'),
      500: unexpected(),
    },
  }),
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const result = await env.core.readSubmission(job, c.req.param('no') ?? '');
      return result.ok
        ? answer(submissionEnvelopeSchema, 200, { submission: result.value })
        : errorResponse(result.error);
    }),
});
