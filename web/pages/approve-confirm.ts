import type { Context } from 'hono';
import { type ApprovalView, API_BASE_PATH } from '../../core/index.ts';
import type { Web } from '../context.ts';
import { formatPrice } from '../format.ts';
import { dimensionsText } from '../fragments.ts';
import { escapeHtml, htmlResponse, page, SAME_ORIGIN_REFERRER, seeOther, withNext, type Viewer } from '../html.ts';
import { readSession } from '../session.ts';
import { sizeWords } from '../size-text.ts';
import { he } from '../strings.ts';
import { approvalPath, confirmPath } from '../paths.ts';
import { approvalPictures } from '../piece-pictures.ts';
import { notFoundPage } from './not-found.ts';
import { unavailablePage } from './unavailable.ts';

/** The piece as worn, small: what "the piece in the picture" refers to. */
function wornThumbnail(view: ApprovalView): string {
  const { worn } = approvalPictures(view);
  const alt = he.confirm.pictureAlt(he.products[view.productType]);
  return `<p class="confirm-picture"><img src="${escapeHtml(worn.src)}" width="${worn.width}" height="${worn.height}" alt="${escapeHtml(alt)}" decoding="async"></p>`;
}

interface ConfirmPageInput {
  view: ApprovalView;
  viewer: Viewer;
  /** The version the person pressed approve on, when it is no longer the one on the link. */
  supersededNo?: number | undefined;
}

/**
 * `/a/{token}/approve`: one question before the design is locked. Signed in, one press posts the
 * approval (the same form and cross-site checks as ever); signed out, the way to an account and
 * straight back here.
 */
function renderConfirmPage({ view, viewer, supersededNo }: ConfirmPageInput): string {
  const product = he.products[view.productType];
  const here = confirmPath(view.token, view.submissionNo);
  const words = sizeWords(view.worn);
  const superseded =
    supersededNo !== undefined
      ? `<div class="notice error" role="alert"><p>${escapeHtml(he.approval.errors.SUBMISSION_SUPERSEDED)}</p></div>`
      : '';
  const summary = `<p class="size-line">${escapeHtml(words.size)}.</p>
<p class="hint">${escapeHtml(words.form)}.</p>
<dl class="facts">
<dt>${escapeHtml(he.facts.product)}</dt><dd>${escapeHtml(product)}</dd>
<dt>${escapeHtml(he.facts.dimensions)}</dt><dd>${escapeHtml(dimensionsText(view.geometry))}</dd>
<dt class="total">${escapeHtml(he.price.total)}</dt><dd class="total">${escapeHtml(formatPrice(view.price.total, view.price.currency))}</dd>
</dl>`;
  const action = viewer
    ? `<p class="hint">${escapeHtml(he.approval.approveAs)} <bdi>${escapeHtml(viewer.email)}</bdi>.</p>
<div class="actions">
<form method="post" action="${escapeHtml(`${API_BASE_PATH}/handoff/${encodeURIComponent(view.token)}/adopt`)}">
<input type="hidden" name="submissionNo" value="${escapeHtml(view.submissionNo)}">
<button type="submit" class="btn btn-primary">${escapeHtml(he.confirm.yes)}</button>
</form>
<a class="btn btn-secondary" href="${escapeHtml(approvalPath(view.token))}">${escapeHtml(he.confirm.back)}</a>
</div>`
    : `<p>${escapeHtml(he.confirm.needsAccount)}</p>
<div class="actions">
<a class="btn btn-primary" href="${escapeHtml(withNext('/signup', here))}">${escapeHtml(he.confirm.signUp)}</a>
<a class="btn btn-secondary" href="${escapeHtml(withNext('/signin', here))}">${escapeHtml(he.confirm.signIn)}</a>
</div>
<p><a href="${escapeHtml(approvalPath(view.token))}">${escapeHtml(he.confirm.back)}</a></p>`;
  return page({
    title: he.confirm.title,
    viewer,
    here,
    noindex: true,
    body: `<h1>${escapeHtml(he.confirm.heading)}</h1>
${superseded}
<p class="lead">${escapeHtml(he.confirm.intro(product, String(view.submissionNo)))}</p>
<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">${escapeHtml(he.confirm.summary)}</h2>
${wornThumbnail(view)}
${summary}
<p>${escapeHtml(he.confirm.locks)}</p>
</section>
<section class="card" aria-labelledby="confirm-heading">
<h2 id="confirm-heading">${escapeHtml(he.approval.decisionHeading)}</h2>
${action}
</section>`,
  });
}

/**
 * `GET /a/{token}/approve?n={no}`: the confirmation while the link waits for a decision; a link
 * already decided goes back to its page, a dead one gets the site's 404 page.
 */
export async function approveConfirmRoute(c: Context, web: Web): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  const token = c.req.param('token') ?? '';
  const view = await web.core.approvalByToken(token);
  const session = await readSession(c, web.core);
  if (!session.ok) return view ? unavailablePage() : notFoundPage();
  if (!view) return notFoundPage(session.value);
  if (view.status !== 'pending') return seeOther(approvalPath(token));
  const asked = c.req.query('n') ?? '';
  const supersededNo = /^[0-9]{1,4}$/.test(asked) && Number(asked) !== view.submissionNo ? Number(asked) : undefined;
  return htmlResponse(renderConfirmPage({ view, viewer: session.value, supersededNo }), 200, SAME_ORIGIN_REFERRER);
}
