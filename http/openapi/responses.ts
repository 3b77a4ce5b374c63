import {
  type Config,
  coreError,
  noSuchEndpoint,
  type ErrorCode,
  IDEMPOTENCY_KEY_PATTERN,
  APPROVAL_TOKEN_LENGTH,
  APPROVAL_TOKEN_PATTERN,
  FAIL_CLOSED_RETRY_SEC,
  CLOSE_TO_REFUSING,
  windowSeconds,
} from '../../core/index.ts';
import { errorEnvelopeFor, type JsonSchema } from './components.ts';

/** An OpenAPI object (response, header, parameter...) as plain data. */
export type OpenApiObject = Record<string, unknown>;

const JSON_MEDIA_TYPE = 'application/json';
export const SVG_MEDIA_TYPE = 'image/svg+xml';
export const PNG_MEDIA_TYPE = 'image/png';

const headerRef = (name: string): OpenApiObject => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string): OpenApiObject => ({ $ref: `#/components/responses/${name}` });
export const parameterRef = (name: string): OpenApiObject => ({ $ref: `#/components/parameters/${name}` });

/** Headers that can be sent with a given status; statuses not listed carry only the common ones. */
const RETRY_AFTER_STATUSES = new Set([429, 500, 502, 503]);

/** The catalogue's waits, which its agent_instructions quote; 500, 502 and 503 share one. */
export const RETRY_LATER_SEC = coreError('PROCESSING_FAILED').retryAfterSec!;
const IN_PROGRESS_RETRY_SEC = coreError('SUBMISSION_IN_PROGRESS').retryAfterSec!;

/** `components.headers`; the rate-limit examples are POST /jobs's buckets at their configured sizes. */
export const headersFor = ({ limits }: Config): Record<string, OpenApiObject> => ({
  RequestId: {
    description:
      'An id for this request, on every answer. Quote it when reporting a problem; it finds the request in our logs.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  NoStore: {
    description: 'Answers are never cached: a job answer may carry a secret, and every answer reflects live state.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  NoSniff: {
    description:
      'On every answer: a browser must not guess another type than Content-Type says (a JSON answer is never run as a page or script).',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  FrameAncestors: {
    description:
      "On every answer: no page may show it in a frame. JSON answers carry exactly frame-ancestors 'none'; the SVG files carry their own policy with frame-ancestors 'none' added.",
    required: true,
    schema: { type: 'string', pattern: "(^|;)\\s*frame-ancestors 'none'\\s*(;|$)" },
  },
  RetryAfter: {
    description: `Seconds to wait before retrying: the blocking bucket window for 429 (${windowSeconds('minute')}, ${windowSeconds('hour')}, seconds to midnight UTC, or ${FAIL_CLOSED_RETRY_SEC} when the limiter store failed), ${IN_PROGRESS_RETRY_SEC} for SUBMISSION_IN_PROGRESS, ${RETRY_LATER_SEC} for 500, 502 and 503. The agent_instruction quotes the same number.`,
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfterInProgress: {
    description: `Sent (${IN_PROGRESS_RETRY_SEC}) with 409 SUBMISSION_IN_PROGRESS only, with retryable true.`,
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitPolicy: {
    description: `The rate-limit buckets this operation counts a request in, in the order they are checked, as a structured-field list (IETF draft-ietf-httpapi-ratelimit-headers): "name";q=<requests>;w=<window in seconds>. The names are the capabilities.limits keys, the numbers the live configuration. Minute and hour buckets are sliding windows over the exact request times; a w=${windowSeconds('utcDay')} bucket is the UTC day and restarts at midnight UTC. Sent with every answer to a request the buckets counted or refused; answers decided before the rate limits (and a limiter that failed closed) carry none.`,
    required: false,
    schema: { type: 'string', pattern: '^"[A-Za-z]+";q=[0-9]+;w=[0-9]+(, "[A-Za-z]+";q=[0-9]+;w=[0-9]+)*$' },
    example: `"jobsPerHourPerIp";q=${limits.jobsPerHourPerIp};w=${windowSeconds('hour')}, "globalJobsPerDay";q=${limits.globalJobsPerDay};w=${windowSeconds('utcDay')}`,
  },
  RateLimit: {
    description: `Where the caller stands after this request, as a structured-field list: "name";r=<requests left>;t=<seconds until one more is free>. It names the bucket with the fewest requests left (each bucket that ties); r=0 means the next request of this kind is refused with 429 until t has passed. For a sliding window t is when its oldest counted request leaves it; for a UTC-day bucket, the seconds to midnight UTC. On a 429 it names the bucket that refused, r=0, t equal to Retry-After (which takes precedence). Left out while every bucket has at least ${CLOSE_TO_REFUSING} left. A hint, not a promise: global buckets are shared by all callers.`,
    required: false,
    schema: { type: 'string', pattern: '^"[A-Za-z]+";r=[0-9]+;t=[0-9]+(, "[A-Za-z]+";r=[0-9]+;t=[0-9]+)*$' },
    example: `"jobsPerHourPerIp";r=${Math.max(0, limits.jobsPerHourPerIp - 1)};t=${windowSeconds('hour')}`,
  },
  Allow: {
    description: 'The methods this path supports. OPTIONS is never listed; HEAD is listed whenever GET is.',
    required: true,
    schema: { type: 'string' },
  },
  Location: {
    description: 'Where the approval page goes next (a path on this site).',
    required: true,
    schema: { type: 'string' },
  },
});

/** Sent with every answer; the reference page leaves them out of each answer's own list. */
export const COMMON_HEADER_NAMES = [
  'X-Request-Id',
  'Cache-Control',
  'X-Content-Type-Options',
  'Content-Security-Policy',
];

const commonHeaders = (): OpenApiObject => ({
  'X-Request-Id': headerRef('RequestId'),
  'Cache-Control': headerRef('NoStore'),
  'X-Content-Type-Options': headerRef('NoSniff'),
  'Content-Security-Policy': headerRef('FrameAncestors'),
});

/** A 2xx or 422 answer with a JSON body. */
export function jsonAnswer(description: string, schema: JsonSchema): OpenApiObject {
  return { description, headers: commonHeaders(), content: { [JSON_MEDIA_TYPE]: { schema } } };
}

/** A 200 with a file body (the SVG routes, the findings picture). */
export function fileAnswer(description: string, mediaType: string): OpenApiObject {
  return { description, headers: commonHeaders(), content: { [mediaType]: { schema: { type: 'string' } } } };
}

/** An answer of a rate-limited operation that the buckets may have counted: it may carry the rate-limit headers. */
export function counted(response: OpenApiObject): OpenApiObject {
  return {
    ...response,
    headers: {
      ...(response.headers as OpenApiObject),
      RateLimit: headerRef('RateLimit'),
      'RateLimit-Policy': headerRef('RateLimitPolicy'),
    },
  };
}

/** A refusal with the error envelope, narrowed to the codes this status can carry here. */
export function refusal(status: number, codes: readonly ErrorCode[], description: string): OpenApiObject {
  const extra: OpenApiObject = RETRY_AFTER_STATUSES.has(status) ? { 'Retry-After': headerRef('RetryAfter') } : {};
  if (codes.includes('SUBMISSION_IN_PROGRESS')) extra['Retry-After'] = headerRef('RetryAfterInProgress');
  return {
    description: `${description} Codes: ${codes.join(', ')}.`,
    headers: { ...commonHeaders(), ...extra },
    content: { [JSON_MEDIA_TYPE]: { schema: errorEnvelopeFor(codes) } },
  };
}

/** The approval page's plain form posts are answered with a redirect (decisions §5). */
export const formRedirect = (description: string): OpenApiObject => ({
  description,
  headers: { ...commonHeaders(), Location: headerRef('Location') },
});

/** Answers shared by many operations (`components.responses`). */
export const sharedResponses: Record<string, OpenApiObject> = {
  Unexpected: refusal(
    500,
    ['PROCESSING_FAILED'],
    `An unexpected failure; nothing internal is said. Wait ${RETRY_LATER_SEC} seconds and retry once.`,
  ),
  RateLimited: counted(
    refusal(429, ['RATE_LIMITED'], 'A per-IP, global or per-account bucket is full; the message names it.'),
  ),
  MethodNotAllowed: {
    ...refusal(
      405,
      ['METHOD_NOT_ALLOWED'],
      'Any method a path does not support (OPTIONS included), checked before authentication.',
    ),
    headers: { ...commonHeaders(), Allow: headerRef('Allow') },
  },
  NoSuchEndpoint: refusal(
    404,
    ['NOT_FOUND'],
    `A path under the base that is not an endpoint: "${noSuchEndpoint().message}"; any job is unaffected.`,
  ),
};

export const unexpected = (): OpenApiObject => responseRef('Unexpected');
export const rateLimited = (): OpenApiObject => responseRef('RateLimited');

export const parameters: Record<string, OpenApiObject> = {
  JobId: {
    name: 'jobId',
    in: 'path',
    required: true,
    description: 'The job id (a UUID). A malformed id answers like an unknown job.',
    schema: { type: 'string', format: 'uuid' },
  },
  SubmissionNo: {
    name: 'no',
    in: 'path',
    required: true,
    description: 'The submission number in the job. A malformed or unknown number answers 404.',
    schema: { type: 'integer', minimum: 1, maximum: 9999 },
  },
  ApprovalToken: {
    name: 'token',
    in: 'path',
    required: true,
    description: `The ${APPROVAL_TOKEN_LENGTH}-character approval token: the last segment of approval.url.`,
    schema: { type: 'string', pattern: APPROVAL_TOKEN_PATTERN.source },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional; 8 to 128 printable ASCII characters, a UUID recommended. Scoped to the caller address. The same key with the same body replays the job (200, no secret); with a different body it is 409 IDEMPOTENCY_CONFLICT.',
    schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
  },
};

export const securitySchemes: Record<string, OpenApiObject> = {
  jobSecret: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ajs_ followed by 43 base64url characters',
    description:
      'The job secret from credentials.jobSecret of the 201 of POST /jobs, returned once and stored only hashed. An unknown job, a wrong secret and a missing secret all answer the same 404 "No such job.".',
  },
  siteSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'jds',
    description: "The person's site session (approval page only). Agents never call the handoff routes.",
  },
};
