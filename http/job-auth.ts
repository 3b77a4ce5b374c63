import type { Context } from 'hono';
import type { JobRow } from '../db/schema.ts';
import { bearerToken } from '../core/index.ts';
import type { RouteEnv } from './route.ts';
import { errorResponse } from './respond.ts';

/** Resolves `{jobId}` with the Bearer secret, or answers the contract's uniform 404. */
export async function withJob(
  c: Context,
  env: RouteEnv,
  then: (job: JobRow) => Promise<Response> | Response,
): Promise<Response> {
  const job = await env.core.authenticate(c.req.param('jobId') ?? '', bearerToken(c.req.header('authorization')));
  return job.ok ? then(job.value) : errorResponse(job.error);
}
