import { z } from 'zod';
import {
  type AgentJob,
  type AgentJobRef,
  type Config,
  invalidRequest,
  type Core,
  err,
  ok,
  type Result,
} from '../core/index.ts';
import type { McpContext } from './context.ts';

/**
 * How long a job handle works, in words an agent can plan with, from the live configuration: a
 * handle lives exactly as long as its job.
 */
export const handleLifetime = (config: Config): string =>
  `A jobHandle works from any connection and any session until its job expires: ${config.limits.jobTtlDays} days after open_job, or ${config.limits.declinedTtlHours} hours after the person declines a design if that comes first.`;

/**
 * The arguments that name a job, flat: `jobHandle` everywhere (required without a session), and
 * within a 2025-11-25 session also `jobId`, as clients of that revision have always sent it.
 */
export function jobRefInput(context: McpContext, config: Config) {
  const jobHandle = z
    .string()
    .describe(`The jobHandle that open_job returned; it lasts ${config.limits.jobTtlDays} days at most.`);
  if (context.sessionKey === undefined) return { jobHandle };
  return {
    jobHandle: jobHandle.optional(),
    jobId: z
      .string()
      .optional()
      .describe('Instead of jobHandle, within this same MCP session only: the job.id that open_job returned here.'),
  };
}

/** Words for an unknown field that names a job the way another protocol revision does. */
export const jobRefFieldHint = (field: string): string | undefined =>
  field === 'jobId'
    ? 'Name the job by the jobHandle that open_job returned; a jobId works only within the MCP 2025-11-25 session that opened the job.'
    : undefined;

/** The job the arguments name (exactly one of jobHandle and jobId), authenticated, or the refusal. */
export async function resolveJobRef(
  core: Core,
  context: McpContext,
  args: { jobHandle?: string | undefined; jobId?: string | undefined },
): Promise<Result<AgentJob>> {
  const ref = jobRefOf(args);
  if (!ref.ok) return ref;
  return core.resolveAgentJob({ sessionKey: context.sessionKey }, ref.value);
}

function jobRefOf(args: { jobHandle?: string | undefined; jobId?: string | undefined }): Result<AgentJobRef> {
  const given = (value: string | undefined): value is string => value !== undefined && value !== '';
  if (given(args.jobHandle) && given(args.jobId)) {
    return err(invalidRequest('Give the job either as jobHandle or as jobId, not both; jobHandle is preferred.'));
  }
  if (given(args.jobHandle)) return ok({ handle: args.jobHandle });
  if (given(args.jobId)) return ok({ jobId: args.jobId });
  return err(invalidRequest('Give the job as jobHandle: the jobHandle that open_job returned.'));
}
