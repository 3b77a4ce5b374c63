import type { JobRow, SubmissionRow } from '../../db/schema.ts';
import { isoTime } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Attribution, SizeInput } from '../contract/create-job.ts';
import type { Finding } from '../contract/finding.ts';
import type { Approval, Job, JobReplay, Price } from '../contract/job.ts';
import type { Validation } from '../contract/submission.ts';
import { storedDeclineReason } from '../handoff/decline-reason.ts';
import { approvalUrl, type ServiceUrls } from '../urls.ts';
import { drawingHints } from './drawing-hints.ts';
import { effectiveStatus, publicExpiresAt } from './job-state.ts';

export interface ViewContext {
  config: Config;
  urls: ServiceUrls;
  now: number;
}

/** How many of the job's submission slots are taken: counted ones and running ones. */
export interface SlotUse {
  counted: number;
  processing: number;
}

export function jobReplayView(job: JobRow, slots: SlotUse, ctx: ViewContext): JobReplay {
  const status = effectiveStatus(job, ctx.now);
  const takesUploads = status === 'open' || status === 'ready' || status === 'declined';
  const left = ctx.config.limits.submissionsPerJob - slots.counted - slots.processing;
  return {
    id: job.id,
    status,
    productType: job.productType,
    dims: { lengthMm: job.lengthMm, widthMm: job.widthMm, gapMm: job.gapMm, thicknessMm: job.thicknessMm },
    drawing: drawingHints(job.lengthMm, job.widthMm, ctx.config),
    limits: { submissionsLeft: takesUploads ? Math.max(0, left) : 0 },
    createdAt: isoTime(job.createdAt),
    expiresAt: isoTime(publicExpiresAt(job, ctx.now)),
  };
}

export function jobView(job: JobRow, latest: SubmissionRow | undefined, slots: SlotUse, ctx: ViewContext): Job {
  const replay = jobReplayView(job, slots, ctx);
  const view: Job = {
    ...replay,
    sizeInput: job.sizeInput as SizeInput,
    latestSubmission: latest ? latestSubmissionView(latest) : null,
    approval: approvalView(job, ctx),
    price: job.price as Price,
    createdAt: replay.createdAt,
    expiresAt: replay.expiresAt,
  };
  if (job.attribution) view.attribution = job.attribution as Attribution;
  return view;
}

/**
 * The link's state; null until a submission passes and on a cancelled job. The person's reason is
 * shown only while the link reads declined: a passing upload re-arms it to pending without one.
 */
export function approvalView(job: JobRow, ctx: ViewContext): Approval | null {
  if (!job.approvalToken || !job.approvalStatus || job.status === 'cancelled') return null;
  return {
    url: approvalUrl(ctx.urls, job.approvalToken),
    status: job.approvalStatus,
    expiresAt: isoTime(job.expiresAt),
    declineReason: job.approvalStatus === 'declined' ? storedDeclineReason(job.declineReason) : null,
  };
}

function latestSubmissionView(row: SubmissionRow): NonNullable<Job['latestSubmission']> {
  const validation = row.validation as Validation | null;
  const codes = (findings: Finding[] | undefined) => [...new Set((findings ?? []).map((f) => f.code))];
  return {
    no: row.no,
    status: row.status,
    errorCodes: codes(validation?.errors),
    warningCodes: codes(validation?.warnings),
    createdAt: isoTime(row.createdAt),
  };
}
