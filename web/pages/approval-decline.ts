import type { Context } from 'hono';
import { parseDeclineReason } from '../../core/handoff/decline-reason.ts';
import type { Web } from '../context.ts';
import { seeOther } from '../html.ts';
import { approvalPath } from '../paths.ts';
import { formFields, isCrossSite } from '../request.ts';
import { notFoundPage } from './not-found.ts';
import { crossSitePage } from './refused.ts';

/**
 * `POST /a/{token}/decline`: the approval page's own decline form, with the person's optional
 * reason (`choice`, `text`). The token is the only key, as for the API's decline route; then 303
 * back to the page, with `?e=CODE` when the reason or the decline was refused (nothing declined).
 *
 * A post another site's page makes is refused like on the site's other forms; `Origin: null` is
 * taken as ours, as on sign-out, because the approval page sends no referrer. No session is at
 * stake here: whoever holds the token can decline without a browser anyway.
 */
export async function approvalDeclineSubmit(c: Context, web: Web): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  if (isCrossSite(c, web.core.urls.siteUrl, 'ours')) return crossSitePage();
  const token = c.req.param('token') ?? '';
  const fields = await formFields(c);
  const reason = parseDeclineReason(
    { choice: fields.choice, text: fields.text },
    web.core.config.site.declineReasonMaxChars,
  );
  if (!reason.ok) return seeOther(approvalPath(token, reason.error.code));
  const result = await web.core.decline(token, reason.value);
  return seeOther(approvalPath(token, result.ok ? undefined : result.error.code));
}
