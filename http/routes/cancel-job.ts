import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

export const cancelJob = defineRoute({
  method: 'DELETE',
  path: '/jobs/:jobId',
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const result = await env.core.cancelJob(job);
      return result.ok ? json(200, { ok: true }) : errorResponse(result.error);
    }),
});
