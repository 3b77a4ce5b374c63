import { clientAddress } from '../client-address.ts';
import { rateLimitListener } from '../rate-limit-headers.ts';
import { readJsonText } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

const MAX_JSON_BYTES = 64 * 1024;

export const createJob = defineRoute({
  method: 'POST',
  path: '/jobs',
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
    if (result.value.kind === 'replayed') return json(200, { job: result.value.job }, headers);
    return json(201, { job: result.value.job, credentials: { jobSecret: result.value.jobSecret } }, headers);
  },
});
