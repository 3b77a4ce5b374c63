import { clientAddress } from '../client-address.ts';
import { withJob } from '../job-auth.ts';
import { rateLimitListener } from '../rate-limit-headers.ts';
import { readUpload } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

export const createSubmission = defineRoute({
  method: 'POST',
  path: '/jobs/:jobId/submissions',
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const png = await readUpload(c.req.raw, env.core.config.image);
      if (!png.ok) return errorResponse(png.error);
      const rate = rateLimitListener();
      const result = await env.core.submit(job, png.value, clientAddress(c, env.trustProxy), rate.observe);
      // Present only when the upload reached the rate limits (not for a stored outcome or earlier refusals).
      const headers = rate.headers();
      if (!result.ok) return errorResponse(result.error, headers);
      return json(result.value.status, { submission: result.value.submission }, headers);
    }),
});
