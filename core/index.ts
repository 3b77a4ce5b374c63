/**
 * The public surface of core: everything the adapters (http, mcp, web) may use, and the only core
 * module they import (eslint.config.js, `adapterBoundary`). The entry points (server.ts, mcp/stdio.ts),
 * which pick the real clock and randomness, the composition root (service.ts) and the tests may reach
 * further in. Grouped by what an adapter does with it.
 */

// The core and what it answers.
export { createCore, type Core, type CoreOptions } from './create-core.ts';
export type {
  AgentJob,
  AgentJobRef,
  AgentScope,
  OpenJobResult,
  PictureKind,
  RateLimitObserver,
  RateLimitReport,
  SubmissionAnswer,
  SweepReport,
} from './create-core.ts';
export { err, ok, type Result } from './result.ts';
export {
  configuredError,
  coreError,
  errorCodes,
  invalidRequest,
  noSuchEndpoint,
  wordsIn,
  type CoreError,
  type ErrorCode,
} from './errors.ts';
export type { AgentTerms } from './contract/agent-words.ts';

// What the adapters are handed: configuration, time, randomness, the log, the service's addresses.
export { configSchema, productTypes, type Config, type ProductType } from './config.ts';
export { HOUR, MINUTE, type Clock } from './clock.ts';
export type { Randomness } from './randomness.ts';
export { errorText, jsonLogger, type Logger } from './logger.ts';
export { API_BASE_PATH, type ServiceUrls } from './urls.ts';
export { API_VERSION, CONTRACT_VERSION, type Capabilities } from './capabilities.ts';

// The contract's shapes, which the OpenAPI document and the MCP tools publish.
export {
  ATTRIBUTION_MAX,
  IDEMPOTENCY_KEY_PATTERN,
  attributionSchema,
  createJobRequestSchema,
  fitSchema,
  sizeSchema,
  type SizeInput,
} from './contract/create-job.ts';
export { describeIssues } from './contract/describe-issue.ts';
export {
  errorEnvelopeSchema,
  findingSchema,
  locationSchema,
  pixelPlaceSchema,
  type Finding,
} from './contract/finding.ts';
export {
  approvalSchema,
  createdJobSchema,
  declineReasonSchema,
  dimsSchema,
  drawingSchema,
  jobReplaySchema,
  jobSchema,
  jobStatuses,
  latestSubmissionSchema,
  priceSchema,
  type Drawing,
  type Job,
  type Price,
} from './contract/job.ts';
export {
  engineParametersSchema,
  engineSchema,
  geometrySchema,
  marginSchema,
  marginsSchema,
  submissionEnvelopeSchema,
  submissionSchema,
  submissionStatuses,
  validationSchema,
  type Geometry,
  type Margin,
  type Submission,
} from './contract/submission.ts';
export {
  adoptRequestSchema,
  cancelledSchema,
  declinedSchema,
  designCreatedSchema,
  jobEnvelopeSchema,
  jobReplayEnvelopeSchema,
} from './contract/answers.ts';

// Reading requests: bodies, credentials, the approval link, the person's choices.
export { readCapped } from './read-capped.ts';
export { bearerToken } from './jobs/secrets.ts';
export { APPROVAL_TOKEN_LENGTH, APPROVAL_TOKEN_PATTERN } from './handoff/approval-token.ts';
export { parseSubmissionNo, type SubmissionFile } from './submissions/read-submission.ts';
export { svgDrawingRules } from './submissions/svg-drawing.ts';
export {
  declineChoiceMeanings,
  declineChoices,
  declineChoicesInWords,
  parseDeclineReason,
  type DeclineChoice,
  type DeclineReason,
} from './handoff/decline-reason.ts';
export { COMMON_PASSWORD_REFUSAL } from './handoff/accounts.ts';
export {
  SESSION_COOKIE,
  type ApprovalView,
  type DesignSummary,
  type DesignView,
  type PiecePictureSizes,
  type SessionAccount,
  type SignedIn,
} from './handoff/types.ts';
export type { WornSize } from './jobs/worn-size.ts';

// Rate limits as the answers' headers state them.
export { addressGroup } from './limits/address-group.ts';
export { FAIL_CLOSED_RETRY_SEC } from './limits/rate-limiter.ts';
export { CLOSE_TO_REFUSING } from './limits/rate-report.ts';
export { windowSeconds } from './limits/windows.ts';

// What the pages and the MCP answers show of a submission's findings.
export { markedPlaces, numberedFindings, pictureHelps } from './submissions/findings-picture/numbering.ts';
export { pipelineTolerances } from './pipeline/tolerances.ts';
