import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { jobs, mcpJobHandles, type JobRow } from '../../db/schema.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, type CoreError } from '../errors.ts';
import { authenticateJob } from '../jobs/job-access.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * How an agent names a job it opened: by its id within the session that opened it, or by the
 * server-minted handle (for session-less clients of MCP 2026-07-28, which pass it as an argument).
 */
export type AgentJobRef = { jobId: string } | { handle: string };

/**
 * Who is asking: the session key of an MCP session (`http:<session id>` or `stdio:<uuid>`), or
 * `undefined` for a session-less caller, which can only name a job by its handle.
 */
export interface AgentScope {
  sessionKey: string | undefined;
}

export interface AgentJob {
  job: JobRow;
  handle: string;
}

/**
 * The session key stored for a job opened without a session (MCP 2026-07-28): no session key
 * has this form, so the job is reachable by its handle only.
 */
const SESSIONLESS = 'none';

/** 24 random bytes: 32 base64url characters, unguessable. */
const HANDLE_BYTES = 24;
const HANDLE_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sealContext = (handle: string, jobId: string): string => `mcp-job-handle\u0000${handle}\u0000${jobId}`;

/**
 * Keeps a just-opened job's secret for the session, encrypted under the server key, and returns
 * the handle naming it. Also drops the handles of jobs that have expired (they open nothing).
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
 * The job a session (or a handle holder) may act on, authenticated with its decrypted secret
 * exactly as a REST caller would be. Anything else is a 404 saying this session did not open it.
 */
export async function resolveAgentJob(deps: CoreDeps, scope: AgentScope, ref: AgentJobRef): Promise<Result<AgentJob>> {
  const row = await findHandle(deps, scope, ref);
  if (!row) return err(notOpenedHere(ref));
  const secret = deps.secretBox.open(row.secretEncrypted, sealContext(row.handle, row.jobId));
  if (secret === undefined) {
    deps.log.warn({ msg: 'mcp job handle did not decrypt', jobId: row.jobId });
    return err(notOpenedHere(ref));
  }
  const job = await authenticateJob(deps, row.jobId, secret);
  if (!job.ok) return err(notOpenedHere(ref));
  return ok({ job: job.value, handle: row.handle });
}

/** Forgets every job a session opened (the session was closed or expired). */
export async function forgetAgentSession(deps: CoreDeps, sessionKey: string): Promise<void> {
  await deps.db.write((tx) => tx.delete(mcpJobHandles).where(eq(mcpJobHandles.sessionKey, sessionKey)));
}

async function findHandle(deps: CoreDeps, scope: AgentScope, ref: AgentJobRef) {
  if ('handle' in ref) {
    if (!HANDLE_PATTERN.test(ref.handle)) return undefined;
    const [row] = await deps.db.orm.select().from(mcpJobHandles).where(eq(mcpJobHandles.handle, ref.handle));
    // Within a session, a handle is only good in the session that minted it.
    if (!row || (scope.sessionKey !== undefined && row.sessionKey !== scope.sessionKey)) return undefined;
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

function notOpenedHere(ref: AgentJobRef): CoreError {
  const named = 'jobId' in ref && UUID_PATTERN.test(ref.jobId) ? `job ${ref.jobId.toLowerCase()}` : 'that job';
  return coreError('NOT_FOUND', {
    message: `No such job in this session: this MCP session did not open ${named}.`,
    agent_instruction:
      'Use the jobId that open_job returned in this same MCP session. Jobs opened over the REST API, in another MCP session, or before the connection was restarted cannot be used here: call open_job to open a new job.',
  });
}
