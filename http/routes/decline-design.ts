import { isFormPost } from '../handoff.ts';
import { approvalPath } from '../../web/paths.ts';
import { seeOther } from '../../web/html.ts';
import { defineRoute } from '../route.ts';
import { errorResponse, json } from '../respond.ts';

/** `POST /handoff/{token}/decline`: the approval page's decline button; the token is enough. */
export const declineDesign = defineRoute({
  method: 'POST',
  path: '/handoff/:token/decline',
  async handle(c, { core }) {
    const token = c.req.param('token') ?? '';
    const result = await core.decline(token);
    if (isFormPost(c)) return seeOther(approvalPath(token, result.ok ? undefined : result.error.code));
    return result.ok ? json(200, { ok: true, status: 'declined' }) : errorResponse(result.error);
  },
});
