import type { Context } from 'hono';
import type { ApprovalView } from '../../core/index.ts';
import type { Web } from '../context.ts';
import { formatDateTime, formatPrice } from '../format.ts';
import { pieceSections } from '../fragments.ts';
import { approvalPictures } from '../piece-pictures.ts';
import { escapeHtml, htmlResponse, page, SAME_ORIGIN_REFERRER, type Viewer } from '../html.ts';
import { nextStepsSection } from '../next-steps.ts';
import { readSession } from '../session.ts';
import { he, type ApprovalErrorCode } from '../strings.ts';
import { changesSection } from './approval-changes.ts';
import { declinedReasonLine, declineForm } from './decline-form.ts';
import { approvalPath, confirmPath } from '../paths.ts';
import { notFoundPage } from './not-found.ts';
import { unavailablePage } from './unavailable.ts';

interface ApprovalPageInput {
  view: ApprovalView;
  viewer: Viewer;
  /** The `e` query parameter: why the last approve or decline was refused. */
  errorCode?: string | undefined;
  thicknessMm: number;
  declineReasonMaxChars: number;
}

const explained = Object.keys(he.approval.errors).filter((code) => code !== 'other') as ApprovalErrorCode[];

/** The Hebrew explanation for a refusal code; any other value gets the general one. */
function approvalErrorText(code: string, declineReasonMaxChars: number): string {
  if (!(explained as string[]).includes(code)) return he.approval.errors.other;
  const text = he.approval.errors[code as ApprovalErrorCode];
  return typeof text === 'function' ? text(String(declineReasonMaxChars)) : text;
}

const notice = (text: string, kind: 'error' | 'success'): string =>
  `<div class="notice ${kind}"${kind === 'error' ? ' role="alert"' : ''}><p>${text}</p></div>`;

/**
 * The decision while the link waits for one: approve leads to the one confirmation
 * (`/a/{token}/approve`), decline is a form here. Also the bar that keeps both within reach.
 */
function decisionSection(view: ApprovalView, viewer: Viewer, expiresText: string, declineFormHtml: string): string {
  const who = viewer
    ? `${escapeHtml(he.approval.approveAs)} <bdi>${escapeHtml(viewer.email)}</bdi>.`
    : escapeHtml(he.approval.approveNeedsAccount);
  return `<section class="card" id="decision" aria-labelledby="decision-heading">
<h2 id="decision-heading">${escapeHtml(he.approval.decisionHeading)}</h2>
<p>${escapeHtml(he.approval.approveHelp)}</p>
<p class="hint">${who}</p>
<p><a class="btn btn-primary" href="${escapeHtml(confirmPath(view.token, view.submissionNo))}">${escapeHtml(he.approval.approve)}</a></p>
<div id="decline">
<p class="hint">${escapeHtml(he.approval.declineHelp)}</p>
${declineFormHtml}
</div>
<p class="hint after">${expiresText}</p>
</section>`;
}

/** Stays at the bottom of the screen while the page scrolls: the total, approve, and the way to decline. */
function decisionBar(view: ApprovalView): string {
  const total = formatPrice(view.price.total, view.price.currency);
  return `<nav class="decision-bar" aria-label="${escapeHtml(he.decisionBar.label)}">
<p class="bar-total">${escapeHtml(he.decisionBar.total(total))}</p>
<a class="btn btn-primary" href="${escapeHtml(confirmPath(view.token, view.submissionNo))}">${escapeHtml(he.approval.approve)}</a>
<a class="btn btn-secondary" href="#decline">${escapeHtml(he.decisionBar.toDecline)}</a>
</nav>`;
}

/** The approval page `/a/{token}`: the piece, its price, and what the person can do in its state. */
export function renderApprovalPage({
  view,
  viewer,
  errorCode,
  thicknessMm,
  declineReasonMaxChars,
}: ApprovalPageInput): string {
  const product = he.products[view.productType];
  const facts = pieceSections(
    {
      productType: view.productType,
      geometry: view.geometry,
      price: view.price,
      pictures: approvalPictures(view),
      thicknessMm,
      submissionNo: view.submissionNo,
      worn: view.worn,
    },
    changesSection(view),
  );
  const error = errorCode ? notice(escapeHtml(approvalErrorText(errorCode, declineReasonMaxChars)), 'error') : '';
  const expiresText = escapeHtml(he.approval.expires(formatDateTime(view.expiresAt)));

  let body: string;
  if (view.status === 'approved') {
    const mine = viewer && view.approvedBy?.accountId === viewer.accountId ? view.approvedBy : undefined;
    const outcome = mine
      ? `${notice(escapeHtml(he.approval.approvedByYou), 'success')}
<p><a class="btn btn-primary" href="/designs/${escapeHtml(encodeURIComponent(mine.designId))}">${escapeHtml(he.approval.toYourDesign)}</a></p>
${nextStepsSection(view.price)}`
      : `<p class="lead">${escapeHtml(he.approval.approvedBySomeone)}</p>`;
    body = `<h1>${escapeHtml(he.approval.approvedHeading)}</h1>
${error}
${outcome}
${facts}`;
  } else if (view.status === 'declined') {
    body = `<h1>${escapeHtml(he.approval.declinedHeading)}</h1>
${error}
<p class="lead">${escapeHtml(he.approval.declinedBody)}</p>
${declinedReasonLine(view)}
${facts}
<p class="hint after">${expiresText}</p>`;
  } else {
    body = `<h1>${escapeHtml(he.approval.pendingHeading)}</h1>
<p class="lead">${escapeHtml(he.approval.pendingIntro(product))}</p>
${error}
${facts}
${decisionSection(view, viewer, expiresText, declineForm(view, declineReasonMaxChars, errorCode))}
${decisionBar(view)}`;
  }

  return page({
    title: he.approval.title,
    viewer,
    here: approvalPath(view.token),
    noindex: true,
    body,
  });
}

export const approvalPage = (input: ApprovalPageInput): Response =>
  htmlResponse(renderApprovalPage(input), 200, SAME_ORIGIN_REFERRER);

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
  const { declineReasonMaxChars } = web.core.config.site;
  return approvalPage({ view, viewer: session.value, errorCode: c.req.query('e'), thicknessMm, declineReasonMaxChars });
}
