import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { jobs, mcpJobHandles, type JobRow } from '../../db/schema.ts';
import { isoTime } from '../clock.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, type CoreError } from '../errors.ts';
import { authenticateJob } from '../jobs/job-access.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * How an agent names a job it opened: by the server-minted handle, good for anyone who holds it
 * (any session, any protocol revision, any instance on the database) until the job expires; or,
 * within an MCP 2025-11-25 session, by the id of a job that session opened.
 */
export type AgentJobRef = { jobId: string } | { handle: string };

/**
 * Who is asking: the session key of an MCP session (`http:<session id>` or `stdio:<uuid>`), or
 * `undefined` for a session-less caller (MCP 2026-07-28), which can only name a job by its handle.
 */
export interface AgentScope {
  sessionKey: string | undefined;
}

export interface AgentJob {
  job: JobRow;
  handle: string;
}

/**
 * The session key stored for a job opened without a session: no session key has this form, so
 * the job is reachable by its handle only.
 */
const SESSIONLESS = 'none';

/** 24 random bytes: 32 base64url characters, unguessable. */
const HANDLE_BYTES = 24;
const HANDLE_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sealContext = (handle: string, jobId: string): string => `mcp-job-handle\u0000${handle}\u0000${jobId}`;

/**
 * Keeps a just-opened job's secret, encrypted under the server key, and returns the handle naming
 * it. The row lives as long as its job (the retention sweep deletes it with the job); handles of
 * jobs that have expired are dropped here too, since they open nothing any more.
 */
export async function rememberAgentJob(
  deps: CoreDeps,
  input: { sessionKey: string | undefined; jobId: string; jobSecret: string },
): Promise<{ handle: string }> {
  const handle = Buffer.from(deps.random.bytes(HANDLE_BYTES)).toString('base64url');
  const now = deps.clock.now();
  const secretEncrypted = deps.secretBox.seal(input.jobSecret, sealContext(handle, input.jobId));
  await deps.db.write(async (tx) => {
    await tx.insert(mcpJobHandles).values({
      handle,
      sessionKey: input.sessionKey ?? SESSIONLESS,
      jobId: input.jobId,
      secretEncrypted,
      createdAt: now,
    });
    const expired = tx.select({ id: jobs.id }).from(jobs).where(lt(jobs.expiresAt, now));
    await tx.delete(mcpJobHandles).where(inArray(mcpJobHandles.jobId, expired));
  });
  return { handle };
}

/**
 * The job a handle (or, within its session, a job id) names, authenticated with its decrypted
 * secret exactly as a REST caller would be, while the job has not expired. Anything else is a
 * refusal that says what to do instead.
 */
export async function resolveAgentJob(deps: CoreDeps, scope: AgentScope, ref: AgentJobRef): Promise<Result<AgentJob>> {
  const row = await findHandle(deps, scope, ref);
  if (!row) return err(unknownJob(ref));
  const secret = deps.secretBox.open(row.secretEncrypted, sealContext(row.handle, row.jobId));
  if (secret === undefined) {
    deps.log.warn({ msg: 'mcp job handle did not decrypt', jobId: row.jobId });
    return err(unknownJob(ref));
  }
  const job = await authenticateJob(deps, row.jobId, secret);
  if (!job.ok) return err(unknownJob(ref));
  if (deps.clock.now() >= job.value.expiresAt) return err(expiredJob(job.value));
  return ok({ job: job.value, handle: row.handle });
}

async function findHandle(deps: CoreDeps, scope: AgentScope, ref: AgentJobRef) {
  if ('handle' in ref) {
    if (!HANDLE_PATTERN.test(ref.handle)) return undefined;
    const [row] = await deps.db.orm.select().from(mcpJobHandles).where(eq(mcpJobHandles.handle, ref.handle));
    return row;
  }
  if (scope.sessionKey === undefined || !UUID_PATTERN.test(ref.jobId)) return undefined;
  const [row] = await deps.db.orm
    .select()
    .from(mcpJobHandles)
    .where(and(eq(mcpJobHandles.sessionKey, scope.sessionKey), eq(mcpJobHandles.jobId, ref.jobId.toLowerCase())))
    .orderBy(desc(mcpJobHandles.createdAt))
    .limit(1);
  return row;
}

const OPEN_ANOTHER =
  'Jobs opened over the REST API cannot be used here. If you no longer have the jobHandle, call open_job to open a new job.';

function unknownJob(ref: AgentJobRef): CoreError {
  if ('handle' in ref) {
    return coreError('NOT_FOUND', {
      message: 'No such job: no job has this jobHandle.',
      agent_instruction: `Pass the jobHandle exactly as open_job returned it. ${OPEN_ANOTHER}`,
    });
  }
  const named = UUID_PATTERN.test(ref.jobId) ? `job ${ref.jobId.toLowerCase()}` : 'that job';
  return coreError('NOT_FOUND', {
    message: `No such job in this session: this MCP session did not open ${named}.`,
    agent_instruction: `Name the job by the jobHandle that open_job returned (it works in any session); a jobId works only in the MCP session that opened the job. ${OPEN_ANOTHER}`,
  });
}

function expiredJob(job: JobRow): CoreError {
  return coreError('JOB_EXPIRED', {
    message: `The job ${job.id} expired at ${isoTime(job.expiresAt)}; its jobHandle no longer works.`,
    agent_instruction:
      'Call open_job to open a new job and use the jobHandle it returns. A design the person approved before then stays in their account.',
  });
}
