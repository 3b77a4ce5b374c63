import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

export const getSubmission = defineRoute({
  method: 'GET',
  path: '/jobs/:jobId/submissions/:no',
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const result = await env.core.readSubmission(job, c.req.param('no') ?? '');
      return result.ok ? json(200, { submission: result.value }) : errorResponse(result.error);
    }),
});
