import { clientAddress } from '../client-address.ts';
import { withJob } from '../job-auth.ts';
import { readUpload } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

export const createSubmission = defineRoute({
  method: 'POST',
  path: '/jobs/:jobId/submissions',
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const png = await readUpload(c.req.raw, env.core.config.image.maxBytes);
      if (!png.ok) return errorResponse(png.error);
      const result = await env.core.submit(job, png.value, clientAddress(c, env.trustProxy));
      if (!result.ok) return errorResponse(result.error);
      return json(result.value.status, { submission: result.value.submission });
    }),
});
