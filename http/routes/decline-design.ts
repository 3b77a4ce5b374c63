import { isFormPost } from '../handoff.ts';
import { ref } from '../openapi/components.ts';
import { open, tokenPath } from '../openapi/operation.ts';
import { formRedirect, jsonAnswer, refusal, unexpected } from '../openapi/responses.ts';
import { approvalPath } from '../../web/paths.ts';
import { seeOther } from '../../web/html.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

/** `POST /handoff/{token}/decline`: the approval page's decline button; the token is enough. */
export const declineDesign = defineRoute({
  method: 'POST',
  path: '/handoff/:token/decline',
  openapi: () => ({
    operationId: 'declineDesign',
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
  }),
  async handle(c, { core }) {
    const token = c.req.param('token') ?? '';
    const result = await core.decline(token);
    if (isFormPost(c)) return seeOther(approvalPath(token, result.ok ? undefined : result.error.code));
    return result.ok ? json(200, { ok: true, status: 'declined' }) : errorResponse(result.error);
  },
});
