import type { Context } from 'hono';
import type { ApprovalView } from '../../core/handoff/types.ts';
import { API_BASE_PATH } from '../../core/urls.ts';
import type { Web } from '../context.ts';
import { formatDateTime } from '../format.ts';
import { pieceSections } from '../fragments.ts';
import { approvalPictures } from '../piece-pictures.ts';
import { escapeHtml, htmlResponse, page, type Viewer } from '../html.ts';
import { readSession } from '../session.ts';
import { he, type ApprovalErrorCode } from '../strings.ts';
import { changesSection } from './approval-changes.ts';
import { notFoundPage } from './not-found.ts';
import { unavailablePage } from './unavailable.ts';

export interface ApprovalPageInput {
  view: ApprovalView;
  viewer: Viewer;
  /** The `e` query parameter: why the last approve or decline was refused. */
  errorCode?: string | undefined;
  thicknessMm: number;
}

const explained = Object.keys(he.approval.errors).filter((code) => code !== 'other') as ApprovalErrorCode[];

/** The Hebrew explanation for a refusal code; any other value gets the general one. */
export function approvalErrorText(code: string): string {
  return (explained as string[]).includes(code)
    ? he.approval.errors[code as ApprovalErrorCode]
    : he.approval.errors.other;
}

const notice = (text: string, kind: 'error' | 'success'): string =>
  `<div class="notice ${kind}"${kind === 'error' ? ' role="alert"' : ''}><p>${text}</p></div>`;

/** The approval page `/a/{token}`: the piece, its price, and what the person can do in its state. */
export function renderApprovalPage({ view, viewer, errorCode, thicknessMm }: ApprovalPageInput): string {
  const product = he.products[view.productType];
  const facts = pieceSections(
    {
      productType: view.productType,
      geometry: view.geometry,
      price: view.price,
      pictures: approvalPictures(view),
      thicknessMm,
      submissionNo: view.submissionNo,
    },
    changesSection(view),
  );
  const error = errorCode ? notice(escapeHtml(approvalErrorText(errorCode)), 'error') : '';
  const expiresText = escapeHtml(he.approval.expires(formatDateTime(view.expiresAt)));

  let body: string;
  if (view.status === 'approved') {
    const mine = viewer && view.approvedBy?.accountId === viewer.accountId ? view.approvedBy : undefined;
    const outcome = mine
      ? `${notice(escapeHtml(he.approval.approvedByYou), 'success')}
<p><a class="btn btn-primary" href="/designs/${escapeHtml(encodeURIComponent(mine.designId))}">${escapeHtml(he.approval.toYourDesign)}</a></p>`
      : `<p class="lead">${escapeHtml(he.approval.approvedBySomeone)}</p>`;
    body = `<h1>${escapeHtml(he.approval.approvedHeading)}</h1>
${error}
${outcome}
${facts}`;
  } else if (view.status === 'declined') {
    body = `<h1>${escapeHtml(he.approval.declinedHeading)}</h1>
${error}
<p class="lead">${escapeHtml(he.approval.declinedBody)}</p>
${facts}
<p class="hint after">${expiresText}</p>`;
  } else {
    const handoff = `${API_BASE_PATH}/handoff/${encodeURIComponent(view.token)}`;
    const who = viewer
      ? `${escapeHtml(he.approval.approveAs)} <bdi>${escapeHtml(viewer.email)}</bdi>.`
      : escapeHtml(he.approval.approveNeedsAccount);
    body = `<h1>${escapeHtml(he.approval.pendingHeading)}</h1>
<p class="lead">${escapeHtml(he.approval.pendingIntro(product))}</p>
${error}
${facts}
<section class="card" aria-labelledby="decision-heading">
<h2 id="decision-heading">${escapeHtml(he.approval.decisionHeading)}</h2>
<p>${escapeHtml(he.approval.approveHelp)}</p>
<p class="hint">${who}</p>
<div class="actions">
<form method="post" action="${escapeHtml(`${handoff}/adopt`)}">
<input type="hidden" name="submissionNo" value="${escapeHtml(view.submissionNo)}">
<button type="submit" class="btn btn-primary">${escapeHtml(he.approval.approve)}</button>
</form>
<form method="post" action="${escapeHtml(`${handoff}/decline`)}">
<button type="submit" class="btn btn-secondary">${escapeHtml(he.approval.decline)}</button>
</form>
</div>
<p class="hint">${escapeHtml(he.approval.declineHelp)}</p>
<p class="hint">${expiresText}</p>
</section>`;
  }

  return page({
    title: he.approval.title,
    viewer,
    here: `/a/${encodeURIComponent(view.token)}`,
    noindex: true,
    body,
  });
}

export const approvalPage = (input: ApprovalPageInput): Response => htmlResponse(renderApprovalPage(input));

/**
 * `GET /a/{token}`: the approval page for a live link; the site's 404 page for an unknown,
 * expired or cancelled one (and for every link while the API is switched off).
 */
export async function approvalRoute(c: Context, web: Web): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  const view = await web.core.approvalByToken(c.req.param('token') ?? '');
  const session = await readSession(c, web.core);
  if (!session.ok) return view ? unavailablePage() : notFoundPage();
  if (!view) return notFoundPage(session.value);
  const thicknessMm = web.core.config.manufacturing.thicknessMm;
  return approvalPage({ view, viewer: session.value, errorCode: c.req.query('e'), thicknessMm });
}
