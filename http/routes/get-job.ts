import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { json } from '../respond.ts';

export const getJob = defineRoute({
  method: 'GET',
  path: '/jobs/:jobId',
  handle: (c, env) => withJob(c, env, async (job) => json(200, { job: await env.core.readJob(job) })),
});
