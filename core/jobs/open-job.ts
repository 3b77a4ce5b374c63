import { eq } from 'drizzle-orm';
import { jobs, type JobRow } from '../../db/schema.ts';
import {
  createJobRequestSchema,
  IDEMPOTENCY_KEY_PATTERN,
  sizeSchema,
  type CreateJobRequest,
} from '../contract/create-job.ts';
import { slot, words } from '../contract/agent-words.ts';
import { describeIssues } from '../contract/describe-issue.ts';
import type { Job, JobReplay } from '../contract/job.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, invalidRequest, type CoreError } from '../errors.ts';
import type { RateLimitObserver, RateLimitReport } from '../limits/rate-report.ts';
import { err, ok, type Result } from '../result.ts';
import { findJobByIdempotencyHash, slotUse } from './job-store.ts';
import { jobReplayView, jobView } from './job-view.ts';
import { effectiveStatus, jobLifetimeEnd } from './job-state.ts';
import { productPrice } from './price.ts';
import { newJobSecret, sha256Hex } from './secrets.ts';
import { blankLengthMm, checkWidth } from './sizing.ts';
import { canonicalJson } from './canonical-json.ts';

export interface OpenJobInput {
  /**
   * The request body: raw JSON text, an already parsed value, or a refusal the adapter reached
   * while reading it (the request still counts against the rate limits first).
   */
  body: { text: string } | { value: unknown } | { refused: CoreError };
  idempotencyKey?: string | undefined;
  clientAddress: string;
  /** Hears the rate-limit buckets' standing once the request's hits are committed (not on fail-closed). */
  onRateLimit?: RateLimitObserver | undefined;
}

export type OpenJobResult = { kind: 'created'; job: Job; jobSecret: string } | { kind: 'replayed'; job: JobReplay };

const knownKeys: Record<string, string[]> = {
  '': ['productType', 'size', 'widthMm', 'attribution'],
  // The keys of all three size forms together: a key none of them has is named as unknown.
  size: sizeSchema.options.flatMap((form) => Object.keys(form.shape)),
  attribution: ['agentPlatform', 'integration', 'skillVersion', 'apiVersion'],
};

/**
 * `POST /jobs`: rate limits first (every request takes a slot, even one refused with 400),
 * then body and key validation, sizing, and the idempotent replay or a new job. The slots, the
 * key lookup and the new job are one write, so a job and its slots commit together and two
 * requests with one key cannot both create a job. The checks that need no database run before
 * it, but a refusal by the limits still wins over a 400.
 */
export async function openJob(deps: CoreDeps, input: OpenJobInput): Promise<Result<OpenJobResult>> {
  const checked = checkRequest(deps, input);
  const now = deps.clock.now();
  let decided: Result<{ created: JobRow; jobSecret: string } | { earlier: JobRow; requestHash: string }>;
  // Heard inside the write, passed on only once it committed: a rolled-back write counted nothing.
  let report: RateLimitReport | undefined;
  try {
    decided = await deps.db.write(async (tx) => {
      const limited = await deps.limiter.jobCreation(input.clientAddress, tx, (heard) => (report = heard));
      if (!limited.ok) return limited;
      if (!checked.ok) return checked;
      const { idempotency } = checked.value;
      if (idempotency) {
        // The usual answer is "no such key": asked for the id alone, it costs a fraction of the row.
        const [known] = await tx
          .select({ id: jobs.id })
          .from(jobs)
          .where(eq(jobs.idempotencyKeyHash, idempotency.keyHash));
        if (known) {
          const earlier = (await findJobByIdempotencyHash(tx, idempotency.keyHash))!;
          return ok({ earlier, requestHash: idempotency.requestHash });
        }
      }
      const jobSecret = newJobSecret(deps.random);
      const row = newJobRow(deps, checked.value, sha256Hex(jobSecret), now);
      await tx.insert(jobs).values(row);
      return ok({ created: row, jobSecret });
    });
  } catch (cause) {
    // The write records the rate-limit hits: when it fails, the limiter fails closed.
    return err(deps.limiter.storeUnreachable(cause));
  }
  if (report) input.onRateLimit?.(report);
  if (!decided.ok) return decided;
  if ('earlier' in decided.value) return replay(deps, decided.value.earlier, decided.value.requestHash);
  const { created, jobSecret } = decided.value;
  const ctx = { config: deps.config, urls: deps.urls, now };
  return ok({ kind: 'created', job: jobView(created, undefined, { counted: 0, processing: 0 }, ctx), jobSecret });
}

interface CheckedRequest {
  request: CreateJobRequest;
  lengthMm: number;
  widthMm: number;
  idempotency: { keyHash: string; requestHash: string } | undefined;
}

/** Body, key and sizing checks, in the order their 400s are answered; no database. */
function checkRequest(deps: CoreDeps, input: OpenJobInput): Result<CheckedRequest> {
  const parsed = parseBody(input.body);
  if (!parsed.ok) return parsed;
  const { idempotencyKey } = input;
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    return err(
      invalidRequest('Header "Idempotency-Key" must be 8 to 128 printable ASCII characters (a UUID is recommended).'),
    );
  }
  const request = parsed.value;
  const length = blankLengthMm(request.productType, request.size, deps.config);
  if (!length.ok) return length;
  const width = checkWidth(request.productType, length.value, request.widthMm, deps.config);
  if (!width.ok) return width;
  const idempotency =
    idempotencyKey === undefined
      ? undefined
      : {
          keyHash: deps.keyedHash('idempotency-key', input.clientAddress, idempotencyKey),
          requestHash: sha256Hex(canonicalJson(request)),
        };
  return ok({ request, lengthMm: length.value, widthMm: width.value, idempotency });
}

function newJobRow(deps: CoreDeps, checked: CheckedRequest, secretHash: string, now: number): JobRow {
  const { request, idempotency } = checked;
  const product = deps.config.products[request.productType];
  return {
    id: deps.random.uuid(),
    secretHash,
    status: 'open',
    productType: request.productType,
    lengthMm: checked.lengthMm,
    widthMm: checked.widthMm,
    gapMm: product.gapMm,
    thicknessMm: deps.config.manufacturing.thicknessMm,
    sizeInput: request.size,
    attribution: request.attribution ?? null,
    price: productPrice(request.productType, deps.config),
    idempotencyKeyHash: idempotency?.keyHash ?? null,
    requestHash: idempotency?.requestHash ?? null,
    createdAt: now,
    expiresAt: jobLifetimeEnd(now, deps.config),
    declinedAt: null,
    cancelledAt: null,
    approvalToken: null,
    approvalStatus: null,
    currentSubmissionNo: null,
    declineReason: null,
  };
}

function parseBody(body: OpenJobInput['body']): Result<CreateJobRequest> {
  let value: unknown;
  if ('refused' in body) return err(body.refused);
  if ('text' in body) {
    if (body.text.trim() === '') return err(invalidRequest('The request body is empty; send a JSON object.'));
    try {
      value = JSON.parse(body.text);
    } catch {
      return err(invalidRequest('The request body is not valid JSON.'));
    }
  } else {
    value = body.value;
  }
  const parsed = createJobRequestSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const message = describeIssues(
    parsed.error,
    (path) => knownKeys[path.join('.')] ?? [],
    (path) => (path[0] === 'size' ? words`${slot.sizeForms}` : undefined),
  );
  return err(invalidRequest(message));
}

async function replay(deps: CoreDeps, earlier: JobRow, requestHash: string): Promise<Result<OpenJobResult>> {
  const now = deps.clock.now();
  const status = effectiveStatus(earlier, now);
  if (status === 'cancelled' || status === 'expired') {
    return err(
      coreError('IDEMPOTENCY_CONFLICT', {
        message: `This Idempotency-Key belongs to a job that is ${status}.`,
        agent_instruction: 'That job cannot be replayed. Open a new job with a fresh Idempotency-Key (a new UUID).',
      }),
    );
  }
  if (earlier.requestHash !== requestHash) return err(coreError('IDEMPOTENCY_CONFLICT'));
  const slots = await slotUse(deps.db.orm, earlier.id);
  return ok({ kind: 'replayed', job: jobReplayView(earlier, slots, { config: deps.config, urls: deps.urls, now }) });
}
