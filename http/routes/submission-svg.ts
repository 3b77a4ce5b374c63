import type { SubmissionFile } from '../../core/index.ts';
import { withJob } from '../job-auth.ts';
import { noSuchJob, submissionPath, withSecret } from '../openapi/operation.ts';
import { fileAnswer, SVG_MEDIA_TYPE, unexpected } from '../openapi/responses.ts';
import { defineRoute, type ApiRoute } from '../route.ts';
import { errorResponse } from '../respond.ts';

/** What the document says about each file. */
const about: Record<SubmissionFile, { operationId: string; summary: string; description: string }> = {
  cutouts: {
    operationId: 'getCutoutsSvg',
    summary: 'The cutting SVG',
    description:
      'The canonical cutting file: viewBox 0 0 L W in millimetres (the framed strip), one group id "cutouts" of black-filled paths that are the cut contours; only M, L, Z commands with three decimals; no script, style or foreign content. Only for a ready submission.',
  },
  preview: {
    operationId: 'getPreviewSvg',
    summary: 'The preview SVG',
    description:
      'A small self-contained silhouette (role="img", dark fill, fill-rule evenodd) drawn from the stored preview geometry. Only for a ready submission.',
  },
};

/** The SVG routes share everything but the file they serve. */
function svgRoute(file: SubmissionFile): ApiRoute {
  return defineRoute({
    method: 'GET',
    path: `/jobs/:jobId/submissions/:no/${file}.svg`,
    openapi: () => ({
      operationId: about[file].operationId,
      tag: 'Submissions',
      summary: about[file].summary,
      description: about[file].description,
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
    }),
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
