import type { Config } from './config.ts';
import { contractTerms, hasSlots, say, slot, words, type AgentTerms, type Text } from './contract/agent-words.ts';

/**
 * The contract's error catalogue: 41 codes in catalogue order. Envelope codes carry their HTTP
 * status; finding codes are reported inside a submission's `validation` and have none.
 */
export const errorCodes = [
  'INVALID_FILE',
  'UNSUPPORTED_FORMAT',
  'FILE_TOO_LARGE',
  'IMAGE_TOO_SMALL',
  'IMAGE_TOO_LARGE',
  'NO_DESIGN_FOUND',
  'NOT_TWO_TONE',
  'DESIGN_TOUCHES_EDGE',
  'DISCONNECTED_REGIONS',
  'FEATURES_TOO_FINE',
  'TRACE_REJECTED',
  'MATERIAL_DISCONNECTED',
  'TRAPPED_ISLAND',
  'NECK_TOO_THIN',
  'OPENING_TOO_SMALL',
  'NECK_CHECK_SKIPPED',
  'PROPORTION_MISMATCH',
  'ISLAND_BRIDGED',
  'ISLAND_REMOVED',
  'OPENING_REMOVED',
  'SPURS_SHAVED',
  'NECK_THICKENED',
  'LENGTH_OUT_OF_RANGE',
  'WIDTH_OUT_OF_RANGE',
  'JOB_LOCKED',
  'JOB_EXPIRED',
  'JOB_CANCELLED',
  'TOO_MANY_SUBMISSIONS',
  'IDEMPOTENCY_CONFLICT',
  'ALREADY_APPROVED',
  'SUBMISSION_IN_PROGRESS',
  'SUBMISSION_SUPERSEDED',
  'VECTORIZER_UNAVAILABLE',
  'PROCESSING_FAILED',
  'PROCESSING_INTERRUPTED',
  'RATE_LIMITED',
  'INVALID_REQUEST',
  'METHOD_NOT_ALLOWED',
  'NOT_FOUND',
  'ACCOUNT_REQUIRED',
  'AUTH_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** An expected refusal, in the contract's envelope shape plus what the edges need to send it. */
export interface CoreError {
  code: ErrorCode;
  message: string;
  agent_instruction?: string;
  retryable?: boolean;
  /** HTTP status the REST edge answers with (the catalogue's "HTTP / arrives as"). */
  status: number;
  /** Sent as `Retry-After` (whole seconds). */
  retryAfterSec?: number;
  /**
   * The message and instruction as written, when they have slots (`core/contract/agent-words.ts`):
   * `message` and `agent_instruction` say them in the contract's terms, `wordsIn` in another surface's.
   */
  words?: { message: Text; agent_instruction?: Text };
}

interface EnvelopeEntry {
  status: number;
  message: Text;
  instruction?: Text;
  retryAfterSec?: number;
}

/** Catalogue wording that states a configured number: a function of the live values, never a copy of a default. */
interface QuotingEntry<From> {
  status: number;
  wording: (from: From) => { message: Text; instruction: Text };
}

const RETRY_LATER = 30;

/** Default wording per envelope code; call sites override `message` where they know more. */
const envelope: Partial<Record<Exclude<ErrorCode, QuotingCode>, EnvelopeEntry>> = {
  INVALID_FILE: {
    status: 400,
    message: 'The file is not a valid PNG (signature or IHDR header is wrong).',
    instruction: 'Export the drawing as a real PNG file (flat, 8-bit, black on white) and upload that file unchanged.',
  },
  UNSUPPORTED_FORMAT: {
    status: 415,
    message: 'Send the image as an image/png body or as multipart/form-data with a PNG file field named "image".',
    instruction: words`${slot.sendPng}`,
  },
  LENGTH_OUT_OF_RANGE: {
    status: 400,
    message: "The blank length is outside the product's range.",
    instruction: words`Choose a size whose blank length lies inside ${slot.productRange('lengthRangeMm')}, or send ${slot.sizeField('lengthMm')} inside that range.`,
  },
  JOB_LOCKED: {
    status: 409,
    message: 'The job is approved and locked.',
    instruction:
      'The person approved this design; nothing more can be changed in this job. Open a new job for a new design.',
  },
  JOB_EXPIRED: {
    status: 409,
    message: 'The job has expired.',
    instruction: words`This job no longer takes uploads or changes; its submissions stay readable. Open a new job with ${slot.openJob} to continue.`,
  },
  JOB_CANCELLED: {
    status: 409,
    message: 'The job was cancelled.',
    instruction: words`Open a new job with ${slot.openJob} to continue.`,
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request body.',
    instruction:
      'Use a fresh Idempotency-Key (a new UUID) for a different request; reuse a key only to resend the identical body.',
  },
  ALREADY_APPROVED: {
    status: 409,
    message: 'Another account already approved this design.',
  },
  SUBMISSION_IN_PROGRESS: {
    status: 409,
    message: 'These exact bytes are still being processed.',
    instruction: words`Wait 10 seconds, then ${slot.awaitOutcome()}`,
    retryAfterSec: 10,
  },
  SUBMISSION_SUPERSEDED: {
    status: 409,
    message: 'This submission is no longer the current ready one.',
  },
  VECTORIZER_UNAVAILABLE: {
    status: 502,
    message: 'The tracer was unreachable or timed out.',
    instruction:
      'Wait 30 seconds and resend the same bytes once. This attempt was not counted against the job. If it repeats, wait longer before trying again.',
    retryAfterSec: RETRY_LATER,
  },
  PROCESSING_FAILED: {
    status: 500,
    message: 'An unexpected error occurred.',
    instruction:
      'Wait 30 seconds and retry once with the same bytes or request. If it repeats, re-export the PNG (flat, 8-bit, no alpha) and stop looping.',
    retryAfterSec: RETRY_LATER,
  },
  RATE_LIMITED: {
    status: 429,
    message: 'A rate limit is full.',
    retryAfterSec: 60,
  },
  INVALID_REQUEST: {
    status: 400,
    message: 'The request is malformed.',
    instruction: words`Fix the named field and send the request again; see ${slot.capabilities} for the accepted values.`,
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: 'This method is not supported on this route.',
    instruction: 'Use one of the methods listed in the Allow header.',
  },
  NOT_FOUND: {
    status: 404,
    message: 'No such endpoint.',
  },
  ACCOUNT_REQUIRED: {
    status: 401,
    message: 'Sign in to approve this design.',
  },
  AUTH_UNAVAILABLE: {
    status: 503,
    message: 'The sign-in service could not verify the session.',
    instruction: 'Wait 30 seconds and try again.',
    retryAfterSec: RETRY_LATER,
  },
};

type ImageLimits = Config['image'];
const canvas = (image: ImageLimits): string => `${image.recommendedPixels.width}x${image.recommendedPixels.height}`;
const quoted = <From>(entry: QuotingEntry<From>) => entry;

/**
 * The codes whose default wording states a limit from the configuration (at the defaults, the
 * contract's words). Built on each refusal from the values in force, so that a CONFIG_FILE which
 * changes a limit changes what agents are told.
 */
const quoting = {
  FILE_TOO_LARGE: quoted({
    status: 413,
    wording: (image: ImageLimits) => ({
      message: `The file is larger than ${image.maxBytes.toLocaleString('en-US')} bytes.`,
      instruction: `Re-export the PNG smaller: ${canvas(image)} pixels, flat black on white, 8-bit grey or palette, no alpha. Such a file is far below the limit.`,
    }),
  }),
  IMAGE_TOO_SMALL: quoted({
    status: 400,
    wording: (image: ImageLimits) => ({
      message: `The image is too small: its short side is under ${image.minShortSidePx} pixels.`,
      instruction: `Draw on a larger canvas: use job.drawing.recommendedPixels (${canvas(image)}).`,
    }),
  }),
  IMAGE_TOO_LARGE: quoted({
    status: 400,
    wording: (image: ImageLimits) => ({
      message: `The image is too large: its long side is over ${image.maxLongSidePx} pixels or it has more than ${image.maxPixels / 1_000_000} megapixels.`,
      instruction: `Draw on a smaller canvas: use job.drawing.recommendedPixels (${canvas(image)}).`,
    }),
  }),
  WIDTH_OUT_OF_RANGE: quoted({
    status: 400,
    wording: (image: ImageLimits) => ({
      message: "widthMm is outside the product's width range.",
      instruction: words`Send a widthMm inside ${slot.productRange('widthRangeMm')} and at least the blank length / ${image.cropAspect.max}.`,
    }),
  }),
  TOO_MANY_SUBMISSIONS: quoted({
    status: 409,
    wording: (limits: Config['limits']) => ({
      message: `All ${limits.submissionsPerJob} counted submissions of this job are used.`,
      instruction:
        'This job takes no more new images. Resending an image already answered still returns its stored outcome. For a new attempt, open a new job.',
    }),
  }),
};

type Quoting = typeof quoting;
/** A code whose default wording states a configured number: built with `configuredError`. */
type QuotingCode = keyof Quoting;
/** The part of the configuration a quoting code's wording reads (`config.image` or `config.limits`). */
type QuotedConfig<C extends QuotingCode> = Parameters<Quoting[C]['wording']>[0];

type ErrorOverrides = Partial<Pick<CoreError, 'retryAfterSec' | 'status'> & { message: Text; agent_instruction: Text }>;

const isQuoting = (code: ErrorCode): code is QuotingCode => code in quoting;

/** The HTTP status an envelope code answers with; undefined for a finding code. */
export const errorStatus = (code: ErrorCode): number | undefined =>
  isQuoting(code) ? quoting[code].status : envelope[code]?.status;

/** Builds the refusal for an envelope code with the catalogue's defaults. */
export function coreError(code: Exclude<ErrorCode, QuotingCode>, overrides?: ErrorOverrides): CoreError;
/** A quoting code whose caller gives all its words (the SVG refusals state their own limits). */
export function coreError(
  code: QuotingCode,
  overrides: ErrorOverrides & Required<Pick<ErrorOverrides, 'message' | 'agent_instruction'>>,
): CoreError;
export function coreError(code: ErrorCode, overrides: ErrorOverrides = {}): CoreError {
  if (isQuoting(code)) {
    if (overrides.message === undefined || overrides.agent_instruction === undefined) {
      throw new Error(`${code} states configured numbers: build it with configuredError`);
    }
    return build(code, { status: quoting[code].status, message: overrides.message }, overrides);
  }
  const entry = envelope[code];
  if (!entry) throw new Error(`${code} is a finding code, not an envelope error`);
  return build(code, entry, overrides);
}

/** Builds the refusal for a code whose wording states configured numbers, from the values in force. */
export function configuredError<C extends QuotingCode>(
  code: C,
  from: QuotedConfig<C>,
  overrides: ErrorOverrides = {},
): CoreError {
  // TypeScript cannot follow `C` from the entry to its own argument; the signature keeps them paired.
  const entry = quoting[code] as QuotingEntry<QuotedConfig<C>>;
  const { message, instruction } = entry.wording(from);
  return build(code, { status: entry.status, message, instruction }, overrides);
}

function build(code: ErrorCode, entry: EnvelopeEntry, overrides: ErrorOverrides): CoreError {
  const retryAfterSec = overrides.retryAfterSec ?? entry.retryAfterSec;
  const message = overrides.message ?? entry.message;
  const instruction = overrides.agent_instruction ?? entry.instruction;
  const error: CoreError = { code, message: say(message, contractTerms), status: overrides.status ?? entry.status };
  if (instruction) error.agent_instruction = say(instruction, contractTerms);
  if (hasSlots(message) || (instruction && hasSlots(instruction))) {
    error.words = { message, ...(instruction ? { agent_instruction: instruction } : {}) };
  }
  if (retryAfterSec !== undefined) {
    error.retryable = true;
    error.retryAfterSec = retryAfterSec;
  }
  return error;
}

export const noSuchJob = (): CoreError => coreError('NOT_FOUND', { message: 'No such job.' });
export const noSuchSubmission = (): CoreError => coreError('NOT_FOUND', { message: 'No such submission.' });
export const noSuchFile = (): CoreError => coreError('NOT_FOUND', { message: 'No such file for this submission.' });
export const noSuchEndpoint = (): CoreError => coreError('NOT_FOUND', { message: 'No such endpoint.' });
export const invalidRequest = (message: Text): CoreError => coreError('INVALID_REQUEST', { message });

/** An error's message and instruction in a surface's own terms (the MCP tools'; REST's are `message` and `agent_instruction`). */
export function wordsIn(error: CoreError, terms: AgentTerms): { message: string; agent_instruction?: string } {
  const { message, agent_instruction } = error.words ?? error;
  return {
    message: say(message, terms),
    ...(agent_instruction ? { agent_instruction: say(agent_instruction, terms) } : {}),
  };
}
