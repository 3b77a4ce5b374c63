import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Queryable, WriteTx } from '../../db/database.ts';
import { jobs, submissions, type JobRow, type SubmissionRow } from '../../db/schema.ts';
import type { Finding } from '../contract/finding.ts';
import { slot, words } from '../contract/agent-words.ts';
import type { Submission, Validation } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { configuredError, coreError, type CoreError } from '../errors.ts';
import { errorText } from '../logger.ts';
import { newApprovalToken } from '../handoff/approval-token.ts';
import { findJob, slotUse } from '../jobs/job-store.ts';
import { effectiveStatus, jobLifetimeEnd, uploadRefusal } from '../jobs/job-state.ts';
import { closeInterrupted } from '../maintenance/interrupted.ts';
import type { RowKey, UploadLeases } from '../maintenance/upload-leases.ts';
import { sha256Hex } from '../jobs/secrets.ts';
import type { PipelineOutcome } from '../pipeline/types.ts';
import type { RateLimitObserver } from '../limits/rate-report.ts';
import { err, ok, type Result } from '../result.ts';
import { engineRecord, type EngineRecord } from './engine.ts';
import { keepDrawing, type KeptDrawing } from './findings-picture/drawing-copy.ts';
import { inspectPngHeader, type PngHeader } from './png-header.ts';
import { submissionView } from './submission-view.ts';

/** A submission answered with its own HTTP status: 200 ready, 422 failed validation. */
export interface SubmissionAnswer {
  status: 200 | 422;
  submission: Submission;
}

const MAX_SUBMISSION_NO = 9999;

/** What an upload runs with besides the core's dependencies. */
interface UploadDeps extends CoreDeps {
  leases: UploadLeases;
}

/**
 * `POST /jobs/{jobId}/submissions` after the secret check, in the contract's order: file
 * checks, job state, content idempotency, rate limits, quota, then the pipeline. `onRateLimit`
 * hears the buckets' standing when the rate limits were reached (not for earlier answers);
 * `counted` says the buckets already counted this upload (an SVG drawing, before its render).
 * The reserved row is held under this process's lease until it is finished; one it cannot
 * finish (the database refused the outcome) it closes as interrupted before answering.
 */
export async function submitDesign(
  deps: UploadDeps,
  job: JobRow,
  png: Uint8Array,
  clientAddress: string,
  onRateLimit?: RateLimitObserver,
  options: { counted?: boolean } = {},
): Promise<Result<SubmissionAnswer>> {
  const header = inspectPngHeader(png, deps.config.image);
  if (!header.ok) return header;
  // The one hash of these bytes: content idempotency looks it up, the row keeps it (engine.inputSha256).
  const sha256 = sha256Hex(png);
  const engine = engineRecord(deps.config, job);

  const early = await stateAndReplay(deps, deps.db.orm, job.id, sha256);
  if (early) return early;

  // A drawing rendered from SVG was counted before its render (core/submissions/svg-drawing.ts).
  if (!options.counted) {
    const limited = await deps.limiter.submission(clientAddress, onRateLimit);
    if (!limited.ok) return limited;
  }

  // Held from the moment it is inserted: another upload of this process, in the same group-committed
  // transaction or right after it, must find the row running here, never abandoned.
  let held: RowKey | undefined;
  const forget = () => {
    if (held) deps.leases.release(held);
    held = undefined;
  };
  const reserved = await deps.db
    .write(async (tx): Promise<Result<number, Result<SubmissionAnswer>>> => {
      forget();
      const again = await stateAndReplay(deps, tx, job.id, sha256, tx);
      if (again) return err(again);
      const slots = await slotUse(tx, job.id);
      const no = slots.maxNo + 1;
      if (slots.counted + slots.processing >= deps.config.limits.submissionsPerJob || no > MAX_SUBMISSION_NO) {
        return err(
          err(
            configuredError('TOO_MANY_SUBMISSIONS', deps.config.limits, {
              message:
                slots.processing > 0 && slots.counted < deps.config.limits.submissionsPerJob
                  ? `All ${deps.config.limits.submissionsPerJob} submissions of this job are used or still running.`
                  : `All ${deps.config.limits.submissionsPerJob} counted submissions of this job are used.`,
            }),
          ),
        );
      }
      const now = deps.clock.now();
      await tx
        .insert(submissions)
        .values({ jobId: job.id, no, status: 'processing', sha256, engine, createdAt: now, ...deps.leases.claim(now) });
      held = { jobId: job.id, no };
      deps.leases.hold(held);
      return ok(no);
    })
    .catch((cause: unknown) => {
      forget();
      throw cause;
    });
  if (!reserved.ok) {
    forget();
    return reserved.error;
  }

  const row = { jobId: job.id, no: reserved.value };
  try {
    return await processReserved(deps, job, png, header.value, { no: row.no, sha256, engine });
  } catch (cause) {
    await closeUnfinished(deps, row);
    throw cause;
  } finally {
    deps.leases.release(row);
  }
}

/** How long an upload that failed to store its outcome waits for its row's close before answering. */
const CLOSE_WAIT_MS = 2000;

/**
 * The row of an upload about to be answered 500 is closed first, so the retry the answer advises
 * is taken at once. A database that does not answer within `CLOSE_WAIT_MS` does not hold the
 * answer back: the close goes on, and is retried until the database takes it.
 */
async function closeUnfinished(deps: UploadDeps, row: RowKey): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
  });
  await Promise.race([deps.leases.abandon(row), waited]).finally(() => clearTimeout(timer));
}

async function processReserved(
  deps: CoreDeps,
  job: JobRow,
  png: Uint8Array,
  header: PngHeader,
  reserved: Reserved,
): Promise<Result<SubmissionAnswer>> {
  const { no } = reserved;
  const started = deps.clock.now();
  const outcome = await runPipeline(deps, job, png, header);
  const durationMs = deps.clock.now() - started;
  // The copy for the findings picture, made once the analysis is done rather than beside it, so
  // the two decodes of a large upload never hold memory at the same time.
  const drawing =
    outcome.kind === 'analysed'
      ? await keepDrawing(png, header, deps.config.image).catch((cause: unknown) => {
          deps.log.warn({
            msg: 'drawing copy for the findings picture failed',
            jobId: job.id,
            no,
            err: errorText(cause),
          });
          return undefined;
        })
      : undefined;
  return finish(deps, job, reserved, outcome, durationMs, drawing);
}

/** The reserved row's identity and what it records about its input and engine. */
interface Reserved {
  no: number;
  sha256: string;
  engine: EngineRecord;
}

/**
 * The answer decided before any work: the job's refusing state, or a stored outcome for these
 * bytes. The same bytes still `processing` in a row its process abandoned are no answer: within
 * the reserving transaction (`closing`) that row is closed as interrupted, and the upload goes on.
 */
async function stateAndReplay(
  deps: UploadDeps,
  q: Queryable,
  jobId: string,
  sha256: string,
  closing?: WriteTx,
): Promise<Result<SubmissionAnswer> | undefined> {
  const open = await jobTakingUploads(q, jobId, deps.clock.now());
  if (!open.ok) return open;
  const job = open.value;
  const [same] = await q
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.jobId, jobId),
        eq(submissions.sha256, sha256),
        inArray(submissions.status, ['processing', 'ready', 'failed_validation']),
      ),
    )
    .orderBy(desc(submissions.no))
    .limit(1);
  if (!same) return undefined;
  if (same.status === 'processing' && deps.leases.isAbandoned(same, deps.clock.now())) {
    if (closing) await closeInterrupted(closing, same, 'stopped', deps);
    return undefined;
  }
  if (same.status === 'processing') {
    return err(
      coreError('SUBMISSION_IN_PROGRESS', {
        message: `These exact bytes are still being processed as submission ${same.no}.`,
        agent_instruction: words`Wait 10 seconds, then ${slot.awaitOutcome({ jobId, no: same.no })}`,
      }),
    );
  }
  return ok(answer(same, job, deps));
}

/** The job as it stands now, when it takes uploads; otherwise why not (a job gone reads as cancelled). */
export async function jobTakingUploads(q: Queryable, jobId: string, now: number): Promise<Result<JobRow>> {
  const job = await findJob(q, jobId);
  if (!job) return err(coreError('JOB_CANCELLED'));
  const refusal = uploadRefusal(effectiveStatus(job, now));
  return refusal ? err(refusal) : ok(job);
}

async function runPipeline(deps: CoreDeps, job: JobRow, png: Uint8Array, header: PngHeader): Promise<PipelineOutcome> {
  try {
    return await deps.pipeline({
      png,
      header,
      productType: job.productType,
      lengthMm: job.lengthMm,
      widthMm: job.widthMm,
      config: deps.config,
    });
  } catch (cause) {
    return { kind: 'failed', code: 'PROCESSING_FAILED', reason: String(cause) };
  }
}

/**
 * Stores the outcome and moves the job: a passing submission points the approval link at
 * itself (creating the link the first time, re-arming it after a decline) unless a newer one
 * already passed or the job left the states that take submissions.
 */
async function finish(
  deps: CoreDeps,
  original: JobRow,
  reserved: Reserved,
  outcome: PipelineOutcome,
  durationMs: number,
  drawing?: KeptDrawing,
): Promise<Result<SubmissionAnswer>> {
  const { no } = reserved;
  const now = deps.clock.now();
  const jobId = original.id;
  const stored = await deps.db.write(async (tx) => {
    const job = await findJob(tx, jobId);
    if (!job || job.status === 'cancelled') {
      // Cancelled while running: the outcome is answered once, never kept.
      await tx.delete(submissions).where(and(eq(submissions.jobId, jobId), eq(submissions.no, no)));
      return { job, row: undefined };
    }
    const fields = { ...outcomeFields(outcome, durationMs, now), ...drawingFields(outcome, drawing) };
    const [row] = await tx
      .update(submissions)
      .set(fields)
      .where(and(eq(submissions.jobId, jobId), eq(submissions.no, no), eq(submissions.status, 'processing')))
      .returning();
    // Closed as interrupted while it ran (over 3 minutes): that stored outcome stands.
    if (!row) return { job, row: undefined, interrupted: true };
    if (fields.status === 'ready' && takesSubmissions(job, now) && (job.currentSubmissionNo ?? 0) < no) {
      const [moved] = await tx
        .update(jobs)
        .set({
          status: 'ready',
          currentSubmissionNo: no,
          approvalToken: job.approvalToken ?? newApprovalToken(deps.random),
          approvalStatus: 'pending',
          declinedAt: null,
          declineReason: null,
          expiresAt: jobLifetimeEnd(job.createdAt, deps.config),
        })
        .where(eq(jobs.id, jobId))
        .returning();
      return { job: moved, row };
    }
    return { job, row };
  });
  if ('interrupted' in stored) {
    deps.log.warn({ msg: 'submission finished after it was closed as interrupted', jobId, no });
    return err(interruptedFailure(deps));
  }

  if (outcome.kind === 'failed') {
    deps.log.warn({ msg: 'submission processing failed', jobId, no, code: outcome.code, reason: outcome.reason });
    return err(processingFailure(outcome.code));
  }
  if (!stored.job || !stored.row) return ok(detachedAnswer(deps, original, reserved, outcome, durationMs, now));
  return ok(answer(stored.row, stored.job, deps));
}

function outcomeFields(outcome: PipelineOutcome, durationMs: number, now: number): Partial<SubmissionRow> {
  if (outcome.kind === 'failed') {
    const failure = processingFailure(outcome.code);
    return {
      status: 'failed_processing',
      counted: false,
      validation: { valid: false, errors: [failureFinding(failure)], warnings: [] } satisfies Validation,
      finishedAt: now,
      durationMs,
    };
  }
  const ready = outcome.errors.length === 0 && outcome.product !== undefined;
  return {
    status: ready ? 'ready' : 'failed_validation',
    counted: true,
    validation: {
      valid: ready,
      errors: outcome.errors,
      warnings: outcome.warnings,
      ...(outcome.margins && { margins: outcome.margins }),
    } satisfies Validation,
    geometry: ready ? outcome.product!.geometry : null,
    cutoutsSvg: ready ? outcome.product!.cutoutsSvg : null,
    previewSvg: ready ? outcome.product!.previewSvg : null,
    finishedAt: now,
    durationMs,
  };
}

/** The drawing copy is kept only with an analysed outcome (ready or failed validation), never a technical failure. */
function drawingFields(outcome: PipelineOutcome, drawing: KeptDrawing | undefined): Partial<SubmissionRow> {
  if (outcome.kind !== 'analysed' || !drawing) return {};
  return { drawingPng: drawing.png, drawingSourcePx: drawing.source, stripPlacement: outcome.placement ?? null };
}

const takesSubmissions = (job: JobRow, now: number): boolean => uploadRefusal(effectiveStatus(job, now)) === undefined;

function processingFailure(code: 'VECTORIZER_UNAVAILABLE' | 'PROCESSING_FAILED'): CoreError {
  if (code === 'VECTORIZER_UNAVAILABLE') return coreError(code);
  return coreError('PROCESSING_FAILED', { status: 502, message: 'The design could not be processed.' });
}

/** The answer to the upload itself once its row reads `PROCESSING_INTERRUPTED`: resend the same bytes. */
function interruptedFailure(deps: CoreDeps): CoreError {
  return coreError('PROCESSING_FAILED', {
    status: 502,
    message: `Processing took longer than ${deps.config.limits.processingInterruptedAfterSec} seconds and was closed as interrupted; it was not counted.`,
  });
}

function failureFinding(error: CoreError): Finding {
  return {
    code: error.code,
    severity: 'error',
    message: error.message,
    agent_instruction: error.agent_instruction ?? '',
    retryable: true,
  };
}

function answer(row: SubmissionRow, job: JobRow, deps: CoreDeps): SubmissionAnswer {
  const submission = submissionView(row, job, { config: deps.config, urls: deps.urls, now: deps.clock.now() });
  return { status: row.status === 'ready' ? 200 : 422, submission };
}

/** The answer for an upload whose job was cancelled while it ran: its outcome, nothing stored. */
function detachedAnswer(
  deps: CoreDeps,
  original: JobRow,
  { no, sha256, engine }: Reserved,
  outcome: Extract<PipelineOutcome, { kind: 'analysed' }>,
  durationMs: number,
  now: number,
): SubmissionAnswer {
  const fields = outcomeFields(outcome, durationMs, now);
  const row = { jobId: original.id, no, sha256, engine, createdAt: now - durationMs, ...fields } as SubmissionRow;
  const job: JobRow = { ...original, status: 'cancelled', currentSubmissionNo: null };
  const submission = submissionView(row, job, { config: deps.config, urls: deps.urls, now });
  return { status: row.status === 'ready' ? 200 : 422, submission: { ...submission, files: null, approval: null } };
}
