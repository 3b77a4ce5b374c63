import { type Config, coreError, submissionEnvelopeSchema } from '../../core/index.ts';
import { clientAddress } from '../client-address.ts';
import { withJob } from '../job-auth.ts';
import { ref } from '../openapi/components.ts';
import {
  jobPath,
  megapixels,
  noSuchJob,
  percent,
  wholeNumber,
  withSecret,
  type Operation,
} from '../openapi/operation.ts';
import { counted, jsonAnswer, rateLimited, refusal, unexpected } from '../openapi/responses.ts';
import { rateLimitListener } from '../rate-limit-headers.ts';
import { readUpload } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

export const createSubmission = defineRoute({
  method: 'POST',
  path: '/jobs/:jobId/submissions',
  openapi: describeUpload,
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const png = await readUpload(c.req.raw, env.core.config.image);
      if (!png.ok) return errorResponse(png.error);
      const rate = rateLimitListener();
      const result = await env.core.submit(job, png.value, clientAddress(c, env.trustProxy), rate.observe);
      // Present only when the upload reached the rate limits (not for a stored outcome or earlier refusals).
      const headers = rate.headers();
      if (!result.ok) return errorResponse(result.error, headers);
      return answer(submissionEnvelopeSchema, result.value.status, { submission: result.value.submission }, headers);
    }),
});

function describeUpload(config: Config): Operation {
  const { image, limits } = config;
  const quota = limits.submissionsPerJob;
  const maxBytes = wholeNumber(image.maxBytes);
  const canvas = `${image.recommendedPixels.width}x${image.recommendedPixels.height}`;
  const { keepWithin, maxStretch } = image.proportion;
  const inProgressRetry = coreError('SUBMISSION_IN_PROGRESS').retryAfterSec;
  return {
    operationId: 'createSubmission',
    tag: 'Submissions',
    summary: 'Upload a PNG drawing',
    description: `Traces, frames, validates and previews the drawing synchronously, within limits.syncTimeoutSec (${limits.syncTimeoutSec} s, a window, not a ceiling). Order: secret check (404); file checks (413, 400); job state (409); identical bytes already answered return the stored outcome with its original status, without counting (409 SUBMISSION_IN_PROGRESS while they still run); rate limits (429) and the quota of ${quota} counted submissions (409); then the pipeline. Send Content-Length. If the answer is lost, resend the same bytes: the stored outcome comes back.`,
    security: withSecret,
    parameters: jobPath,
    requestBody: {
      required: true,
      description: `The PNG (at most ${maxBytes} bytes), as a raw image/png body, or as multipart/form-data with a file field named "image" typed image/png or untyped (then the PNG signature decides). Draw the strip at job.drawing.ratio on the recommended canvas (${canvas}, job.drawing.recommendedPixels): a drawing within ${percent(keepWithin)} % of that ratio keeps its own width; up to x${maxStretch} (or x1/${maxStretch}) off, it is stretched along the length (a PROPORTION_MISMATCH warning); further off, or with a piece outside ${image.cropAspect.min}:1 to ${image.cropAspect.max}:1, it fails validation (a PROPORTION_MISMATCH error).`,
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
          ref(submissionEnvelopeSchema),
        ),
      ),
      422: counted(
        jsonAnswer(
          'Failed validation (not the error envelope): status failed_validation, errors non-empty, each with an agent_instruction to follow. Counts as one submission. Do not resend the same image.',
          ref(submissionEnvelopeSchema),
        ),
      ),
      400: refusal(
        400,
        ['INVALID_FILE', 'IMAGE_TOO_SMALL', 'IMAGE_TOO_LARGE', 'INVALID_REQUEST'],
        `Not a PNG (signature or IHDR), short side under ${image.minShortSidePx} px, long side over ${image.maxLongSidePx} px or over ${megapixels(image.maxPixels)} megapixels; an empty body, unparsable multipart or no "image" field. Not counted.`,
      ),
      404: noSuchJob(),
      409: counted(
        refusal(
          409,
          ['JOB_LOCKED', 'JOB_EXPIRED', 'JOB_CANCELLED', 'TOO_MANY_SUBMISSIONS', 'SUBMISSION_IN_PROGRESS'],
          `The job is approved, expired or cancelled (even for identical bytes); all ${quota} counted submissions are used; or identical bytes are still processing (the message names that submission; retryable, Retry-After ${inProgressRetry}).`,
        ),
      ),
      413: refusal(413, ['FILE_TOO_LARGE'], `The file is over ${maxBytes} bytes.`),
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
          `The tracer was unreachable or timed out (${limits.tracerTimeoutSec} s), or processing failed. Stored as failed_processing, not counted; retryable. The message never quotes the tracer.`,
        ),
      ),
    },
  };
}
