import { and, eq, gt } from 'drizzle-orm';
import { designs, jobs, type JobRow } from '../../db/schema.ts';
import type { Price } from '../contract/job.ts';
import type { Geometry } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, invalidRequest, type CoreError } from '../errors.ts';
import { findSubmission } from '../jobs/job-store.ts';
import { declinedLifetimeEnd, effectiveStatus } from '../jobs/job-state.ts';
import type { RateLimitObserver } from '../limits/rate-report.ts';
import { err, ok, type Result } from '../result.ts';
import { APPROVAL_TOKEN_PATTERN } from './approval-token.ts';
import { renderFindingsPicture } from '../submissions/findings-picture/findings-picture.ts';
import { engineChanges, pictureInput } from '../submissions/read-picture.ts';
import type { SizeInput } from '../contract/create-job.ts';
import { storedDeclineReason, type DeclineReason } from './decline-reason.ts';
import type { ApprovalView, Wear } from './types.ts';
import { wearOf } from './wear.ts';

const noSuchLink = (): CoreError => coreError('NOT_FOUND', { message: 'No such approval link.' });
const nothingToApprove = (): CoreError => coreError('NOT_FOUND', { message: 'Nothing to approve on this link.' });

async function jobByToken(deps: CoreDeps, token: string): Promise<JobRow | undefined> {
  if (!APPROVAL_TOKEN_PATTERN.test(token)) return undefined;
  const [job] = await deps.db.orm.select().from(jobs).where(eq(jobs.approvalToken, token));
  return job;
}

async function designOfJob(deps: CoreDeps, jobId: string) {
  const [design] = await deps.db.orm.select().from(designs).where(eq(designs.jobId, jobId));
  return design;
}

/**
 * The job and ready submission a live link shows, with the link's status; nothing for unknown,
 * cancelled or expired links (the site's 404).
 */
export async function liveLink(deps: CoreDeps, token: string) {
  const job = await jobByToken(deps, token);
  if (!job || !job.approvalStatus || job.currentSubmissionNo === null) return undefined;
  const status = effectiveStatus(job, deps.clock.now());
  if (status === 'cancelled' || status === 'expired' || status === 'open') return undefined;
  const submission = await findSubmission(deps.db.orm, job.id, job.currentSubmissionNo);
  if (!submission || submission.status !== 'ready' || !submission.previewSvg || !submission.geometry) return undefined;
  return { job: { ...job, approvalStatus: job.approvalStatus }, status, submission };
}

/** The approval page's content, or nothing (the site's 404) for unknown, cancelled or expired links. */
export async function approvalByToken(deps: CoreDeps, token: string): Promise<ApprovalView | undefined> {
  const link = await liveLink(deps, token);
  if (!link) return undefined;
  const { job, status, submission } = link;
  const wear: Wear = { sizeInput: job.sizeInput as SizeInput, gapMm: job.gapMm, thicknessMm: job.thicknessMm };
  const view: ApprovalView = {
    token,
    status: job.approvalStatus,
    productType: job.productType,
    submissionNo: submission.no,
    geometry: submission.geometry as Geometry,
    price: job.price as Price,
    expiresAt: job.expiresAt,
    ...wearOf(wear, job.productType, submission.geometry as Geometry, deps),
    ...engineChanges(submission, deps.config),
  };
  if (job.approvalStatus === 'declined') view.declineReason = storedDeclineReason(job.declineReason);
  if (status === 'approved') {
    const design = await designOfJob(deps, job.id);
    if (design) view.approvedBy = { accountId: design.accountId, designId: design.id };
  }
  return view;
}

/**
 * `GET /a/{token}/changes.png`: the findings picture of the submission the link shows, when it has
 * repaired places to show before and after; nothing otherwise (the site's 404). The token is the
 * only key: it opens exactly what the page shows, never another submission of the job.
 */
export async function approvalChangesPicture(deps: CoreDeps, token: string): Promise<Buffer | undefined> {
  const link = await liveLink(deps, token);
  if (!link || !engineChanges(link.submission, deps.config).changesPicture) return undefined;
  const input = pictureInput(link.submission, deps.config);
  return input ? renderFindingsPicture(input) : undefined;
}

/**
 * A decline, from `POST /handoff/{token}/decline` (no reason: `undefined`) or the approval page's
 * own form (`reason` as `parseDeclineReason` read it, `null` for none). A ready job becomes declined
 * (its lifetime shortened to 24 hours) by a compare-and-set that also sets or clears the reason; a
 * repeat is answered as done; an approved job is locked.
 *
 * A repeat that gives a reason replaces the stored one, in the same transaction, only while the job
 * is still declined and unexpired: it changes nothing else (the 24 hours still run from the first
 * decline), cannot touch a link a new passing upload re-armed, and the agent simply reads the newer
 * words. A repeat without one (the API route, a second tab left empty) leaves the reason as it is.
 *
 * `shownNo`, the submission the page showed, pins the decline to it: when another submission is the
 * job's current one by then (a passing upload landed while the person read the page), nothing is
 * declined and the answer is `SUBMISSION_SUPERSEDED`. Without it (the API route's callers, which
 * show no version) the decline applies to whatever is current, as before.
 */
export async function decline(
  deps: CoreDeps,
  token: string,
  reason?: DeclineReason | null,
  shownNo?: unknown,
): Promise<Result<void>> {
  if (shownNo !== undefined && !isSubmissionNo(shownNo)) {
    return err(invalidRequest('Field "submissionNo" must be the integer shown on the page (1 to 9999).'));
  }
  const job = await jobByToken(deps, token);
  if (!job) return err(noSuchLink());
  const now = deps.clock.now();
  const pinned = shownNo === undefined ? [] : [eq(jobs.currentSubmissionNo, shownNo)];
  const changed = await deps.db.write(async (tx) => {
    const declined = await tx
      .update(jobs)
      .set({
        status: 'declined',
        approvalStatus: 'declined',
        declinedAt: now,
        expiresAt: declinedLifetimeEnd(job, now, deps.config),
        declineReason: reason ?? null,
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'ready'), gt(jobs.expiresAt, now), ...pinned));
    if (declined.rowsAffected === 1) return true;
    if (reason) {
      await tx
        .update(jobs)
        .set({ declineReason: reason })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'declined'), gt(jobs.expiresAt, now), ...pinned));
    }
    return false;
  });
  if (changed) return ok(undefined);
  const current = (await jobByToken(deps, token)) ?? job;
  const status = effectiveStatus(current, now);
  const moved = shownNo !== undefined && current.currentSubmissionNo !== shownNo;
  if (moved && (status === 'ready' || status === 'declined')) return err(coreError('SUBMISSION_SUPERSEDED'));
  if (status === 'declined') return ok(undefined);
  if (status === 'approved') return err(coreError('JOB_LOCKED'));
  return err(noSuchLink());
}

/**
 * `POST /handoff/{token}/adopt` for a signed-in account: the design is copied into the account
 * and the job locked, in one transaction whose compare-and-set is pinned to the submission on
 * the page. If a newer passing submission landed first, nothing is created.
 */
export async function adopt(
  deps: CoreDeps,
  token: string,
  submissionNo: unknown,
  accountId: string,
  onRateLimit?: RateLimitObserver,
): Promise<Result<{ designId: string; created: boolean }>> {
  const limited = await deps.limiter.adopt(accountId, onRateLimit);
  if (!limited.ok) return limited;
  if (!isSubmissionNo(submissionNo)) {
    return err(invalidRequest('Field "submissionNo" must be the integer shown on the page (1 to 9999).'));
  }
  const job = await jobByToken(deps, token);
  if (!job) return err(noSuchLink());
  const early = await refusalFor(deps, job, submissionNo, accountId);
  if (early) return early;

  const recheck = dimensionsStillPass(deps, job);
  if (recheck) return err(recheck);
  const submission = await findSubmission(deps.db.orm, job.id, submissionNo);
  if (!submission || submission.status !== 'ready' || !submission.cutoutsSvg || !submission.previewSvg) {
    return err(nothingToApprove());
  }
  const designId = deps.random.uuid();
  const now = deps.clock.now();
  const created = await deps.db.write(async (tx) => {
    const locked = await tx
      .update(jobs)
      .set({ status: 'approved', approvalStatus: 'approved' })
      .where(
        and(
          eq(jobs.id, job.id),
          eq(jobs.status, 'ready'),
          eq(jobs.currentSubmissionNo, submissionNo),
          gt(jobs.expiresAt, now),
        ),
      );
    if (locked.rowsAffected !== 1) return false;
    await tx.insert(designs).values({
      id: designId,
      accountId,
      jobId: job.id,
      submissionNo,
      productType: job.productType,
      geometry: submission.geometry,
      price: job.price,
      cutoutsSvg: submission.cutoutsSvg!,
      previewSvg: submission.previewSvg!,
      sizeInput: job.sizeInput,
      gapMm: job.gapMm,
      thicknessMm: job.thicknessMm,
      createdAt: now,
    });
    return true;
  });
  if (created) return ok({ designId, created: true });
  // Someone else's write came first: answer as the job now stands.
  const current = (await jobByToken(deps, token)) ?? job;
  return (await refusalFor(deps, current, submissionNo, accountId)) ?? err(coreError('SUBMISSION_SUPERSEDED'));
}

/** The answer decided by the job's state alone, or nothing when the adopt may go ahead. */
async function refusalFor(
  deps: CoreDeps,
  job: JobRow,
  submissionNo: number,
  accountId: string,
): Promise<Result<{ designId: string; created: boolean }> | undefined> {
  const status = effectiveStatus(job, deps.clock.now());
  if (status === 'approved') {
    const design = await designOfJob(deps, job.id);
    if (design?.accountId === accountId) return ok({ designId: design.id, created: false });
    return err(coreError('ALREADY_APPROVED'));
  }
  if (status !== 'ready') return err(status === 'declined' || status === 'open' ? nothingToApprove() : noSuchLink());
  if (job.currentSubmissionNo !== submissionNo) {
    return err(
      coreError('SUBMISSION_SUPERSEDED', {
        message: `Submission ${submissionNo} is no longer the current design; submission ${job.currentSubmissionNo} replaced it.`,
      }),
    );
  }
  return undefined;
}

/** The re-validation on adopt: the job's dimensions must still pass today's product limits. */
function dimensionsStillPass(deps: CoreDeps, job: JobRow): CoreError | undefined {
  const range = deps.config.products[job.productType].lengthRangeMm;
  if (job.lengthMm < range.min || job.lengthMm > range.max) {
    return coreError('LENGTH_OUT_OF_RANGE', {
      message: `The blank length ${job.lengthMm} mm is no longer inside the ${job.productType} range ${range.min}-${range.max} mm.`,
    });
  }
  return undefined;
}

/** A submission number as a page shows it. */
const isSubmissionNo = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 9999;
