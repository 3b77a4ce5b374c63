import { withJob } from '../job-auth.ts';
import { noSuchJob, submissionPath, withSecret } from '../openapi/operation.ts';
import { fileAnswer, PNG_MEDIA_TYPE, unexpected } from '../openapi/responses.ts';
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
  openapi: (config) => ({
    operationId: 'getFindingsPng',
    tag: 'Submissions',
    summary: 'The findings picture',
    description: `Your own drawing (a greyscale copy, scaled down to at most the recommended canvas width, ${config.image.recommendedPixels.width} px, aspect kept; pixel (x, y) of your upload is at (x, y) times picture width / upload width) with every place of every finding circled and numbered: errors solid vermillion, warnings dashed blue. Numbers follow validation.errors then validation.warnings (finding n is the n-th of that combined list; all its locations carry n). Below it, a legend of numbers and codes; for a ready submission with repairs (ISLAND_BRIDGED, ISLAND_REMOVED, NECK_THICKENED, SPURS_SHAVED, OPENING_REMOVED), each repaired place before (your drawing) and after (the cut, drawn from the cutting SVG), numbered the same. Drawn on request from a copy of the drawing kept with the submission and its stored findings. For ready and failed_validation submissions.`,
    security: withSecret,
    parameters: submissionPath,
    responses: {
      200: fileAnswer('The PNG picture, with X-Content-Type-Options: nosniff.', PNG_MEDIA_TYPE),
      404: noSuchJob(
        '; unknown submission: "No such submission."; processing, failed_processing, or kept without a copy of the drawing: "No such file for this submission."',
      ),
      500: unexpected(),
    },
  }),
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
