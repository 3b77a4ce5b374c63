import type { Context } from 'hono';
import { parseDeclineReason, parseSubmissionNo } from '../../core/index.ts';
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
 * The form carries the submission number the page showed (`submissionNo`): a decline lands only on
 * that version, and a page left open while a newer one passed comes back with `?e=DECLINE_SUPERSEDED`
 * showing the newer one, nothing declined. A form without the field (a page from before it) declines
 * whatever is current.
 *
 * A post another site's page makes is refused like on the site's other forms, `Origin: null`
 * included: the approval page sends its referrer to our own origin (`SAME_ORIGIN_REFERRER`), so a
 * browser's own post from it carries the real Origin, or `Sec-Fetch-Site: same-origin`.
 */
export async function approvalDeclineSubmit(c: Context, web: Web): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  if (isCrossSite(c, web.core.urls.siteUrl, 'foreign')) return crossSitePage();
  const token = c.req.param('token') ?? '';
  const fields = await formFields(c);
  const reason = parseDeclineReason(
    { choice: fields.choice, text: fields.text },
    web.core.config.site.declineReasonMaxChars,
  );
  if (!reason.ok) return seeOther(approvalPath(token, reason.error.code));
  const shown = fields.submissionNo;
  const shownNo = shown === undefined ? undefined : (parseSubmissionNo(shown) ?? shown);
  const result = await web.core.decline(token, reason.value, shownNo);
  if (result.ok) return seeOther(approvalPath(token));
  const code = result.error.code === 'SUBMISSION_SUPERSEDED' ? 'DECLINE_SUPERSEDED' : result.error.code;
  return seeOther(approvalPath(token, code));
}
