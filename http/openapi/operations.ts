import { ref } from './components.ts';
import {
  counted,
  fileAnswer,
  formRedirect,
  jsonAnswer,
  parameterRef,
  PNG_MEDIA_TYPE,
  rateLimited,
  refusal,
  SVG_MEDIA_TYPE,
  unexpected,
  type OpenApiObject,
} from './responses.ts';

/** One endpoint of the contract as the document states it; `path` is relative to the API base. */
export interface Operation {
  /** The name of the route's export in http/routes/. */
  operationId: string;
  method: 'get' | 'post' | 'delete';
  path: string;
  tag: 'Discovery' | 'Jobs' | 'Submissions' | 'Approval page';
  summary: string;
  description: string;
  security: OpenApiObject[];
  parameters?: OpenApiObject[];
  requestBody?: OpenApiObject;
  responses: Record<string, OpenApiObject>;
}

const withSecret = [{ jobSecret: [] }];
const open: OpenApiObject[] = [];
const jobPath = [parameterRef('JobId')];
const submissionPath = [parameterRef('JobId'), parameterRef('SubmissionNo')];
const tokenPath = [parameterRef('ApprovalToken')];

const noSuchJob = (more = ''): OpenApiObject =>
  refusal(404, ['NOT_FOUND'], `Unknown job, wrong or missing secret: "No such job."${more}`);

function svgFile(name: 'cutouts' | 'preview', summary: string, description: string): Operation {
  return {
    operationId: name === 'cutouts' ? 'getCutoutsSvg' : 'getPreviewSvg',
    method: 'get',
    path: `/jobs/{jobId}/submissions/{no}/${name}.svg`,
    tag: 'Submissions',
    summary,
    description,
    security: withSecret,
    parameters: submissionPath,
    responses: {
      200: fileAnswer(
        'The SVG file, with X-Content-Type-Options: nosniff and a Content-Security-Policy that forbids scripts.',
        SVG_MEDIA_TYPE,
      ),
      404: noSuchJob(
        '; unknown submission: "No such submission."; not ready or no such file: "No such file for this submission."',
      ),
      500: unexpected(),
    },
  };
}

export const operations: Operation[] = [
  {
    operationId: 'getCapabilities',
    method: 'get',
    path: '/capabilities',
    tag: 'Discovery',
    summary: 'What the service makes and its live limits',
    description:
      'Products with length and width ranges and prices, the size forms, the image rules, the limits and the error catalogue, read at call time from the same configuration the validator enforces. Fetch once per session. No authentication, no rate limit. While the API is switched off this path answers the site 404 page (text/html).',
    security: open,
    responses: { 200: jsonAnswer('The capabilities.', ref('Capabilities')), 500: unexpected() },
  },
  {
    operationId: 'createJob',
    method: 'post',
    path: '/jobs',
    tag: 'Jobs',
    summary: 'Open a job',
    description:
      'Opens a job for one product, size and width. The 201 carries the job and, once only, the job secret (credentials.jobSecret); it is stored hashed and cannot be recovered. If the 201 is lost, resend with the same Idempotency-Key and body; a replay answers 200 with the reduced job and no secret.',
    security: open,
    parameters: [parameterRef('IdempotencyKey')],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref('CreateJobRequest') } },
    },
    responses: {
      201: counted(jsonAnswer('The job was opened; the secret is in credentials.jobSecret, once.', ref('CreatedJob'))),
      200: counted(
        jsonAnswer('An idempotent replay (same key, same body): the reduced job, no secret.', ref('JobReplayEnvelope')),
      ),
      400: counted(
        refusal(
          400,
          ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE', 'WIDTH_OUT_OF_RANGE'],
          'Malformed JSON, an unknown or wrong-typed field (the message names its path), a malformed size (the message names the three forms, after the path of any field inside size that no form has), a bad Idempotency-Key, or a blank length or width outside the product range (the message names the limits).',
        ),
      ),
      409: counted(
        refusal(
          409,
          ['IDEMPOTENCY_CONFLICT'],
          "The key was used with a different body, or the key's job is cancelled or expired (two different messages). Use a fresh key.",
        ),
      ),
      429: rateLimited(),
      500: unexpected(),
    },
  },
  {
    operationId: 'getJob',
    method: 'get',
    path: '/jobs/{jobId}',
    tag: 'Jobs',
    summary: 'Read a job',
    description:
      'The job state, never with credentials. Poll at most every limits.pollIntervalSec (30) seconds while the person decides: approval.status becomes approved or declined, and approval.declineReason (an addition) carries the reason the person gave, if any. A job past expiresAt reads expired. A failed_processing latestSubmission with PROCESSING_INTERRUPTED in errorCodes means: resend the same bytes. Not rate limited.',
    security: withSecret,
    parameters: jobPath,
    responses: { 200: jsonAnswer('The job.', ref('JobEnvelope')), 404: noSuchJob(), 500: unexpected() },
  },
  {
    operationId: 'cancelJob',
    method: 'delete',
    path: '/jobs/{jobId}',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description:
      'Cancels an open, ready or declined job: its stored source images and submissions are deleted. Repeating it answers 200. The status change is a compare-and-set, so it cannot undo an approval that landed at the same moment.',
    security: withSecret,
    parameters: jobPath,
    responses: {
      200: jsonAnswer('Cancelled (also when it already was).', ref('Cancelled')),
      404: noSuchJob(),
      409: refusal(409, ['JOB_LOCKED', 'JOB_EXPIRED'], 'The job is approved (locked) or expired.'),
      500: unexpected(),
    },
  },
  {
    operationId: 'createSubmission',
    method: 'post',
    path: '/jobs/{jobId}/submissions',
    tag: 'Submissions',
    summary: 'Upload a PNG drawing',
    description:
      'Traces, frames, validates and previews the drawing synchronously, within limits.syncTimeoutSec (120 s, a window, not a ceiling). Order: secret check (404); file checks (413, 400); job state (409); identical bytes already answered return the stored outcome with its original status, without counting (409 SUBMISSION_IN_PROGRESS while they still run); rate limits (429) and the quota of 10 counted submissions (409); then the pipeline. Send Content-Length. If the answer is lost, resend the same bytes: the stored outcome comes back.',
    security: withSecret,
    parameters: jobPath,
    requestBody: {
      required: true,
      description:
        'The PNG (at most 6,000,000 bytes), as a raw image/png body, or as multipart/form-data with a file field named "image" typed image/png or untyped (then the PNG signature decides).',
      content: {
        'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['image'],
            properties: { image: { type: 'string', contentMediaType: 'image/png' } },
          },
          encoding: { image: { contentType: 'image/png, application/octet-stream, text/plain' } },
        },
      },
    },
    responses: {
      200: counted(
        jsonAnswer(
          'Ready: validation.valid is true; geometry, files, approval and price are filled; warnings list what the engine changed.',
          ref('SubmissionEnvelope'),
        ),
      ),
      422: counted(
        jsonAnswer(
          'Failed validation (not the error envelope): status failed_validation, errors non-empty, each with an agent_instruction to follow. Counts as one submission. Do not resend the same image.',
          ref('SubmissionEnvelope'),
        ),
      ),
      400: refusal(
        400,
        ['INVALID_FILE', 'IMAGE_TOO_SMALL', 'IMAGE_TOO_LARGE', 'INVALID_REQUEST'],
        'Not a PNG (signature or IHDR), short side under 256 px, long side over 8192 px or over 24 megapixels; an empty body, unparsable multipart or no "image" field. Not counted.',
      ),
      404: noSuchJob(),
      409: counted(
        refusal(
          409,
          ['JOB_LOCKED', 'JOB_EXPIRED', 'JOB_CANCELLED', 'TOO_MANY_SUBMISSIONS', 'SUBMISSION_IN_PROGRESS'],
          'The job is approved, expired or cancelled (even for identical bytes); all 10 counted submissions are used; or identical bytes are still processing (the message names that submission; retryable, Retry-After 10).',
        ),
      ),
      413: refusal(413, ['FILE_TOO_LARGE'], 'The file is over 6,000,000 bytes.'),
      415: refusal(
        415,
        ['UNSUPPORTED_FORMAT'],
        'The body is not image/png or multipart/form-data, or the "image" part declares another type.',
      ),
      429: rateLimited(),
      500: unexpected(),
      502: counted(
        refusal(
          502,
          ['VECTORIZER_UNAVAILABLE', 'PROCESSING_FAILED'],
          'The tracer was unreachable or timed out (90 s), or processing failed. Stored as failed_processing, not counted; retryable. The message never quotes the tracer.',
        ),
      ),
    },
  },
  {
    operationId: 'getSubmission',
    method: 'get',
    path: '/jobs/{jobId}/submissions/{no}',
    tag: 'Submissions',
    summary: 'Read one submission',
    description:
      'Always 200 with the stored outcome in any status, never recomputed: for ready and failed_validation what the upload returned, with approval as the job is now; for failed_processing one finding with retryable true; while processing, empty findings and null geometry, files, approval and durationMs. engine records the SHA-256 of the uploaded bytes, the engine version and the parameters the upload was analysed under (null on submissions stored before it was recorded). Works in every job state (after a cancel the submissions are deleted: 404).',
    security: withSecret,
    parameters: submissionPath,
    responses: {
      200: jsonAnswer('The submission.', ref('SubmissionEnvelope')),
      404: noSuchJob('; unknown number: "No such submission."'),
      500: unexpected(),
    },
  },
  svgFile(
    'cutouts',
    'The cutting SVG',
    'The canonical cutting file: viewBox 0 0 L W in millimetres (the framed strip), one group id "cutouts" of black-filled paths that are the cut contours; only M, L, Z commands with three decimals; no script, style or foreign content. Only for a ready submission.',
  ),
  svgFile(
    'preview',
    'The preview SVG',
    'A small self-contained silhouette (role="img", dark fill, fill-rule evenodd) drawn from the stored preview geometry. Only for a ready submission.',
  ),
  {
    operationId: 'getFindingsPng',
    method: 'get',
    path: '/jobs/{jobId}/submissions/{no}/findings.png',
    tag: 'Submissions',
    summary: 'The findings picture',
    description:
      'Your own drawing (a greyscale copy, scaled down to at most the recommended canvas width, 1536 px, aspect kept; pixel (x, y) of your upload is at (x, y) times picture width / upload width) with every place of every finding circled and numbered: errors solid vermillion, warnings dashed blue. Numbers follow validation.errors then validation.warnings (finding n is the n-th of that combined list; all its locations carry n). Below it, a legend of numbers and codes; for a ready submission with repairs (ISLAND_BRIDGED, ISLAND_REMOVED, NECK_THICKENED, SPURS_SHAVED, OPENING_REMOVED), each repaired place before (your drawing) and after (the cut, drawn from the cutting SVG), numbered the same. Drawn on request from a copy of the drawing kept with the submission and its stored findings. For ready and failed_validation submissions.',
    security: withSecret,
    parameters: submissionPath,
    responses: {
      200: fileAnswer('The PNG picture, with X-Content-Type-Options: nosniff.', PNG_MEDIA_TYPE),
      404: noSuchJob(
        '; unknown submission: "No such submission."; processing, failed_processing, or kept without a copy of the drawing: "No such file for this submission."',
      ),
      500: unexpected(),
    },
  },
  {
    operationId: 'adoptDesign',
    method: 'post',
    path: '/handoff/{token}/adopt',
    tag: 'Approval page',
    summary: 'Approve the design (approval page only)',
    description:
      "The approval page's approve button; agents never call it. Needs the person's site session. If submissionNo is the job's current ready submission, a design is created in the person's account and the job is locked to approved (compare-and-set pinned to that submission). The page's plain form posts get 303 redirects instead of JSON: to sign-in and back without a session, to /designs/{designId} after approving, back to /a/{token}?e=CODE on a refusal.",
    security: [{ siteSession: [] }],
    parameters: tokenPath,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref('AdoptRequest') },
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['submissionNo'],
            properties: { submissionNo: { type: 'string', pattern: '^[0-9]{1,4}$' } },
          },
        },
      },
    },
    responses: {
      201: counted(jsonAnswer('The design was created.', ref('Design'))),
      200: counted(jsonAnswer('The same account approved it already: the same designId.', ref('Design'))),
      303: formRedirect('A form post: where the page goes next.'),
      400: counted(
        refusal(
          400,
          ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE'],
          'submissionNo is missing or malformed, or the dimensions no longer pass.',
        ),
      ),
      401: refusal(401, ['ACCOUNT_REQUIRED'], 'No signed-in person (a request from another site counts as none).'),
      404: counted(refusal(404, ['NOT_FOUND'], 'Unknown approval token, or nothing to approve.')),
      409: counted(
        refusal(
          409,
          ['ALREADY_APPROVED', 'SUBMISSION_SUPERSEDED'],
          'Another account approved first, or submissionNo is no longer the current ready submission.',
        ),
      ),
      429: rateLimited(),
      500: unexpected(),
      503: refusal(503, ['AUTH_UNAVAILABLE'], 'The sign-in service could not verify the session; retryable.'),
    },
  },
  {
    operationId: 'declineDesign',
    method: 'post',
    path: '/handoff/{token}/decline',
    tag: 'Approval page',
    summary: 'Decline the design (approval page only)',
    description:
      "The approval page's decline button; agents never call it. The token is enough: no account, no body. A ready job becomes declined; repeating it answers 200. The page's plain form post gets a 303 back to the page. This route stores no reason (approval.declineReason reads null after it); the page's own form, with the person's optional reason, posts to the site path /a/{token}/decline instead, which is not part of this API.",
    security: open,
    parameters: tokenPath,
    requestBody: {
      required: false,
      content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
    },
    responses: {
      200: jsonAnswer('Declined (also when repeated).', ref('Declined')),
      303: formRedirect('A form post: back to the approval page.'),
      404: refusal(404, ['NOT_FOUND'], 'Unknown token, or nothing to decline.'),
      409: refusal(409, ['JOB_LOCKED'], 'The job is approved.'),
      500: unexpected(),
    },
  },
];
