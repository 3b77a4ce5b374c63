import type { SubmissionFile } from '../../core/submissions/read-submission.ts';
import { withJob } from '../job-auth.ts';
import { defineRoute, type ApiRoute } from '../route.ts';
import { errorResponse } from '../respond.ts';

/** The SVG routes share everything but the file they serve. */
function svgRoute(file: SubmissionFile): ApiRoute {
  return defineRoute({
    method: 'GET',
    path: `/jobs/:jobId/submissions/:no/${file}.svg`,
    handle: (c, env) =>
      withJob(c, env, async (job) => {
        const result = await env.core.readSubmissionFile(job, c.req.param('no') ?? '', file);
        if (!result.ok) return errorResponse(result.error);
        return new Response(result.value, {
          status: 200,
          headers: {
            'content-type': 'image/svg+xml; charset=utf-8',
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          },
        });
      }),
  });
}

export const getCutoutsSvg = svgRoute('cutouts');
export const getPreviewSvg = svgRoute('preview');
