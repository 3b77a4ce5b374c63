import {
  rememberAgentJob,
  resolveAgentJob,
  type AgentJob,
  type AgentJobRef,
  type AgentScope,
} from './agent-handles/index.ts';
import { buildCapabilities, type Capabilities } from './capabilities.ts';
import type { Config } from './config.ts';
import { sessionAccount, signIn, signOut, signUp, type Credentials } from './handoff/accounts.ts';
import { adopt, approvalByToken, approvalChangesPicture, decline } from './handoff/approval.ts';
import type { DeclineReason } from './handoff/decline-reason.ts';
import { designForAccount, designsOfAccount } from './handoff/designs.ts';
import type { ApprovalView, DesignSummary, DesignView, SessionAccount, SignedIn } from './handoff/types.ts';
import type { Job } from './contract/job.ts';
import type { Submission } from './contract/submission.ts';
import type { CoreDeps } from './deps.ts';
import { authenticateJob, cancelJob, readJob } from './jobs/job-access.ts';
import { openJob, type OpenJobInput, type OpenJobResult } from './jobs/open-job.ts';
import { loadKeyedHash } from './keyed-hash.ts';
import { createInFlight } from './maintenance/in-flight.ts';
import { sweep, type SweepReport } from './maintenance/sweeper.ts';
import { createUploadLeases, thisProcess, type ProcessIdentity } from './maintenance/upload-leases.ts';
import { createRateLimiter } from './limits/rate-limiter.ts';
import type { RateLimitObserver, RateLimitReport } from './limits/rate-report.ts';
import { createPictureCache } from './piece-pictures/cache.ts';
import type { PictureKind } from './piece-pictures/layout.ts';
import { approvalPiecePicture, designPiecePicture } from './piece-pictures/serve.ts';
import type { Result } from './result.ts';
import { loadSecretBox } from './secret-box.ts';
import { readFindingsPicture } from './submissions/read-picture.ts';
import { readSubmission, readSubmissionFile, type SubmissionFile } from './submissions/read-submission.ts';
import { jobTakingUploads, submitDesign, type SubmissionAnswer } from './submissions/submit.ts';
import { drawingFromSvg, renderSvgDrawing } from './submissions/svg-drawing.ts';
import { createRenderedCache } from './submissions/svg/rendered-cache.ts';
import { createSvgRenderer } from './submissions/svg/render-pool.ts';
import type { JobRow } from '../db/schema.ts';
import type { ServiceUrls } from './urls.ts';

/** What the caller provides; the core derives the keyed hash, the secret box and the rate limiter itself. */
export type CoreOptions = Omit<CoreDeps, 'keyedHash' | 'secretBox' | 'limiter'> & {
  /** The process uploads run in (`thisProcess()` when absent): how rows of a dead predecessor are recognised. */
  identity?: ProcessIdentity;
};

/** The service's domain, shared by every adapter (REST, MCP, pages). */
export interface Core {
  readonly config: Config;
  readonly urls: ServiceUrls;
  capabilities(): Capabilities;
  openJob(input: OpenJobInput): Promise<Result<OpenJobResult>>;
  /** Resolves a job from its id and presented secret; the same 404 for every failure. */
  authenticate(jobId: string, secret: string | undefined): Promise<Result<JobRow>>;
  readJob(job: JobRow): Promise<Job>;
  cancelJob(job: JobRow): Promise<Result<void>>;
  /** `onRateLimit` hears the rate-limit buckets' standing if the upload reached them. */
  submit(
    job: JobRow,
    png: Uint8Array,
    clientAddress: string,
    onRateLimit?: RateLimitObserver,
  ): Promise<Result<SubmissionAnswer>>;
  /**
   * A drawing sent as SVG text, checked and rendered on the job's canvas: the PNG to pass to
   * `submit` (the same text always gives the same bytes), or why it was refused
   * (INVALID_FILE, FILE_TOO_LARGE; PROCESSING_FAILED when the renderer itself failed).
   */
  drawingFromSvg(job: JobRow, svgText: string): Promise<Result<Buffer>>;
  /**
   * `submit` for a drawing sent as SVG text: refused at once by a job that takes no uploads,
   * then checked, counted in the submission buckets before it is rendered (a document this
   * process rendered lately is neither rendered nor counted again), rendered and submitted.
   */
  submitSvg(
    job: JobRow,
    svgText: string,
    clientAddress: string,
    onRateLimit?: RateLimitObserver,
  ): Promise<Result<SubmissionAnswer>>;
  readSubmission(job: JobRow, no: string): Promise<Result<Submission>>;
  readSubmissionFile(job: JobRow, no: string, file: SubmissionFile): Promise<Result<string>>;
  /** The findings picture (PNG) of a ready or failed_validation submission, drawn on request. */
  readFindingsPicture(job: JobRow, no: string): Promise<Result<Buffer>>;
  /** The approval page's content; undefined for unknown, cancelled or expired links. */
  approvalByToken(token: string): Promise<ApprovalView | undefined>;
  /** The changes picture of the submission a live link shows; undefined when it has none to show. */
  approvalChangesPicture(token: string): Promise<Buffer | undefined>;
  /**
   * A picture of the piece a live link shows (PNG): `flat`, the blank with a millimetre ruler, or
   * `worn`, bent round as worn; undefined for unknown, cancelled or expired links.
   */
  approvalPiecePicture(token: string, kind: PictureKind): Promise<Buffer | undefined>;
  adopt(
    token: string,
    submissionNo: unknown,
    accountId: string,
    onRateLimit?: RateLimitObserver,
  ): Promise<Result<{ designId: string; created: boolean }>>;
  /**
   * Declines a ready job; `reason` comes from the approval page's form (`parseDeclineReason`),
   * `undefined` from the API route, which takes none. `shownNo`, the submission number the page
   * showed, pins the decline to it (`SUBMISSION_SUPERSEDED` when another is current).
   */
  decline(token: string, reason?: DeclineReason | null, shownNo?: unknown): Promise<Result<void>>;
  signUp(input: Credentials): Promise<Result<SignedIn>>;
  signIn(input: Credentials): Promise<Result<SignedIn>>;
  signOut(sessionToken: string): Promise<void>;
  /** The signed-in account, none, or AUTH_UNAVAILABLE when the session store cannot answer. */
  sessionAccount(sessionToken: string | undefined): Promise<Result<SessionAccount | undefined>>;
  designForAccount(designId: string, accountId: string): Promise<DesignView | undefined>;
  /** The signed-in person's designs, newest first. */
  designsOfAccount(accountId: string): Promise<DesignSummary[]>;
  /** A picture of the account's own design, as `approvalPiecePicture`; undefined for anyone else's. */
  designPiecePicture(designId: string, accountId: string, kind: PictureKind): Promise<Buffer | undefined>;
  /**
   * MCP job state: keeps a job's secret server-side (encrypted) under a random handle, good until
   * the job expires; `sessionKey` (a 2025-11-25 session's) also lets that session name it by id.
   */
  rememberAgentJob(sessionKey: string | undefined, jobId: string, jobSecret: string): Promise<{ handle: string }>;
  /** The authenticated, unexpired job a handle holder (or a session, by job id) may act on; a refusal otherwise. */
  resolveAgentJob(scope: AgentScope, ref: AgentJobRef): Promise<Result<AgentJob>>;
  /** An MCP client opening a streamable HTTP session: counted per address, refused past the hour's limit. */
  admitAgentSession(clientAddress: string): Promise<Result<void>>;
  /** One retention and crash-recovery pass at the clock's now; safe on several instances at once. */
  sweep(): Promise<SweepReport>;
  /** True once no upload is being processed here, false if some still run after `timeoutMs`. */
  uploadsSettled(timeoutMs: number): Promise<boolean>;
  /**
   * Extends the leases of the uploads running here and retries the closes the database refused;
   * the composition root calls it every `LEASE_RENEW_EVERY_MS`.
   */
  renewUploadLeases(): Promise<void>;
  /**
   * This core runs no more uploads: rows it still holds read as abandoned to every instance, and
   * its SVG render processes end.
   */
  retire(): void;
}

/** Rendered SVG drawings kept for resends: a greyscale canvas PNG is tens of kilobytes. */
const RENDERED_SVG_CACHE_BYTES = 8 * 1024 * 1024;

export async function createCore({ identity, ...options }: CoreOptions): Promise<Core> {
  const keyedHash = await loadKeyedHash(options.db, options.random);
  const secretBox = await loadSecretBox(options.db, options.random);
  const limiter = createRateLimiter({ ...options, keyedHash });
  const deps: CoreDeps = { ...options, keyedHash, secretBox, limiter };
  const leases = createUploadLeases(deps, identity ?? thisProcess());
  const uploadDeps = { ...deps, leases };
  const uploads = createInFlight();
  const svgRenderer = createSvgRenderer({ concurrency: options.config.svg.concurrentRenders });
  const rendered = createRenderedCache(RENDERED_SVG_CACHE_BYTES);
  const pictures = createPictureCache({
    maxBytes: options.config.pictures.cacheBytes,
    concurrency: options.config.pictures.concurrentRenders,
  });
  return {
    config: options.config,
    urls: options.urls,
    capabilities: () => buildCapabilities(options.config, options.urls),
    openJob: (input) => openJob(deps, input),
    authenticate: (jobId, secret) => authenticateJob(deps, jobId, secret),
    readJob: (job) => readJob(deps, job),
    cancelJob: (job) => cancelJob(deps, job),
    submit: (job, png, clientAddress, onRateLimit) =>
      uploads.track(submitDesign(uploadDeps, job, png, clientAddress, onRateLimit)),
    drawingFromSvg: (job, svgText) => drawingFromSvg(deps, svgRenderer, job, svgText),
    async submitSvg(job, svgText, clientAddress, onRateLimit) {
      // The job as it stands now, before anything is counted: the caller's row may be from before a cancel.
      const open = await jobTakingUploads(deps.db.orm, job.id, deps.clock.now());
      if (!open.ok) return open;
      const counting = { limiter, clientAddress, onRateLimit };
      const drawing = await renderSvgDrawing(deps, svgRenderer, rendered, job, svgText, counting);
      if (!drawing.ok) return drawing;
      const { png, counted } = drawing.value;
      return uploads.track(submitDesign(uploadDeps, job, png, clientAddress, onRateLimit, { counted }));
    },
    readSubmission: (job, no) => readSubmission(deps, job, no),
    readSubmissionFile: (job, no, file) => readSubmissionFile(deps, job, no, file),
    readFindingsPicture: (job, no) => readFindingsPicture(deps, job, no),
    approvalByToken: (token) => approvalByToken(deps, token),
    approvalChangesPicture: (token) => approvalChangesPicture(deps, token),
    approvalPiecePicture: (token, kind) => approvalPiecePicture(deps, pictures, token, kind),
    adopt: (token, submissionNo, accountId, onRateLimit) => adopt(deps, token, submissionNo, accountId, onRateLimit),
    decline: (token, reason, shownNo) => decline(deps, token, reason, shownNo),
    signUp: (input) => signUp(deps, input),
    signIn: (input) => signIn(deps, input),
    signOut: (token) => signOut(deps, token),
    sessionAccount: (token) => sessionAccount(deps, token),
    designForAccount: (designId, accountId) => designForAccount(deps, designId, accountId),
    designsOfAccount: (accountId) => designsOfAccount(deps, accountId),
    designPiecePicture: (designId, accountId, kind) => designPiecePicture(deps, pictures, designId, accountId, kind),
    rememberAgentJob: (sessionKey, jobId, jobSecret) => rememberAgentJob(deps, { sessionKey, jobId, jobSecret }),
    resolveAgentJob: (scope, ref) => resolveAgentJob(deps, scope, ref),
    admitAgentSession: (clientAddress) => limiter.mcpSession(clientAddress),
    sweep: () => sweep(deps, leases),
    uploadsSettled: (timeoutMs) => uploads.settled(timeoutMs),
    renewUploadLeases: () => leases.renew(),
    retire: () => {
      leases.retire();
      svgRenderer.close();
    },
  };
}

export type {
  PictureKind,
  SubmissionAnswer,
  OpenJobResult,
  AgentJob,
  AgentJobRef,
  AgentScope,
  SweepReport,
  RateLimitObserver,
  RateLimitReport,
};
