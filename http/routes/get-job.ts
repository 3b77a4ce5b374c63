import { jobEnvelopeSchema } from '../../core/index.ts';
import { ref } from '../openapi/components.ts';
import { jobPath, noSuchJob, withSecret } from '../openapi/operation.ts';
import { jsonAnswer, unexpected } from '../openapi/responses.ts';
import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { answer } from '../respond.ts';

export const getJob = defineRoute({
  method: 'GET',
  path: '/jobs/:jobId',
  openapi: (config) => ({
    operationId: 'getJob',
    tag: 'Jobs',
    summary: 'Read a job',
    description: `The job state, never with credentials. Poll at most every limits.pollIntervalSec (${config.limits.pollIntervalSec}) seconds while the person decides: approval.status becomes approved or declined, and approval.declineReason (an addition) carries the reason the person gave, if any. A job past expiresAt reads expired. A failed_processing latestSubmission with PROCESSING_INTERRUPTED in errorCodes means: resend the same bytes. Not rate limited.`,
    security: withSecret,
    parameters: jobPath,
    responses: { 200: jsonAnswer('The job.', ref(jobEnvelopeSchema)), 404: noSuchJob(), 500: unexpected() },
  }),
  handle: (c, env) =>
    withJob(c, env, async (job) => answer(jobEnvelopeSchema, 200, { job: await env.core.readJob(job) })),
});
