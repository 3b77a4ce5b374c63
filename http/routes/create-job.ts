import { createJobRequestSchema, createdJobSchema, jobReplayEnvelopeSchema } from '../../core/index.ts';
import { clientAddress } from '../client-address.ts';
import { ref } from '../openapi/components.ts';
import { open } from '../openapi/operation.ts';
import { counted, jsonAnswer, parameterRef, rateLimited, refusal, unexpected } from '../openapi/responses.ts';
import { rateLimitListener } from '../rate-limit-headers.ts';
import { readJsonText } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

const MAX_JSON_BYTES = 64 * 1024;

export const createJob = defineRoute({
  method: 'POST',
  path: '/jobs',
  openapi: (config) => ({
    operationId: 'createJob',
    tag: 'Jobs',
    summary: 'Open a job',
    description:
      'Opens a job for one product, size and width. The 201 carries the job and, once only, the job secret (credentials.jobSecret); it is stored hashed and cannot be recovered. If the 201 is lost, resend with the same Idempotency-Key and body; a replay answers 200 with the reduced job and no secret.',
    security: open,
    parameters: [parameterRef('IdempotencyKey')],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(createJobRequestSchema) } },
    },
    responses: {
      201: counted(
        jsonAnswer('The job was opened; the secret is in credentials.jobSecret, once.', ref(createdJobSchema)),
      ),
      200: counted(
        jsonAnswer(
          'An idempotent replay (same key, same body): the reduced job, no secret.',
          ref(jobReplayEnvelopeSchema),
        ),
      ),
      400: counted(
        refusal(
          400,
          ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE', 'WIDTH_OUT_OF_RANGE'],
          `Malformed JSON, an unknown or wrong-typed field (the message names its path), a malformed size (the message names the three forms, after the path of any field inside size that no form has), a bad Idempotency-Key, a blank length or width outside the product range, or a width under the blank length / ${config.image.cropAspect.max} or over the blank length / ${config.image.cropAspect.min} (the message names the limits).`,
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
  }),
  async handle(c, { core, trustProxy }) {
    const text = await readJsonText(c.req.raw, MAX_JSON_BYTES);
    const rate = rateLimitListener();
    const result = await core.openJob({
      body: text.ok ? { text: text.value } : { refused: text.error },
      idempotencyKey: c.req.header('idempotency-key'),
      clientAddress: clientAddress(c, trustProxy),
      onRateLimit: rate.observe,
    });
    const headers = rate.headers();
    if (!result.ok) return errorResponse(result.error, headers);
    if (result.value.kind === 'replayed')
      return answer(jobReplayEnvelopeSchema, 200, { job: result.value.job }, headers);
    return answer(
      createdJobSchema,
      201,
      { job: result.value.job, credentials: { jobSecret: result.value.jobSecret } },
      headers,
    );
  },
});
