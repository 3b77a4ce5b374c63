import { withJob } from '../job-auth.ts';
import { defineRoute } from '../route.ts';
import { errorResponse } from '../respond.ts';

/**
 * `GET /jobs/{jobId}/submissions/{no}/findings.png`: the findings picture, behind the job secret
 * like the SVG files, with their 404s (an unknown submission; "No such file for this submission."
 * for any status but ready and failed_validation). Drawn on request, so never cached.
 */
export const getFindingsPng = defineRoute({
  method: 'GET',
  path: '/jobs/:jobId/submissions/:no/findings.png',
  handle: (c, env) =>
    withJob(c, env, async (job) => {
      const no = c.req.param('no') ?? '';
      const result = await env.core.readFindingsPicture(job, no);
      if (!result.ok) return errorResponse(result.error);
      return new Response(new Uint8Array(result.value), {
        status: 200,
        headers: {
          'content-type': 'image/png',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'content-disposition': `inline; filename="findings-${Number(no)}.png"`,
        },
      });
    }),
});
