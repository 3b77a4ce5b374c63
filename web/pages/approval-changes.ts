import type { Context } from 'hono';
import type { ApprovalView } from '../../core/index.ts';
import type { Web } from '../context.ts';
import { formatNumber } from '../format.ts';
import { escapeHtml } from '../html.ts';
import { approvalPath } from '../paths.ts';
import { he } from '../strings.ts';
import { notFoundPage } from './not-found.ts';

type LineCode = Exclude<keyof typeof he.changes.lines, 'other'>;

/** The Hebrew line for a warning code; a code without one gets the general note. */
function lineText(code: string): string {
  return code in he.changes.lines && code !== 'other' ? he.changes.lines[code as LineCode] : he.changes.lines.other;
}

/** Where the page's changes picture is served: the link's own token is its only key. */
const changesPicturePath = (token: string): string => `${approvalPath(token)}/changes.png`;

/**
 * What the engine changed, below the preview: the changes picture (each repaired place before and
 * after, numbered), then one line per numbered warning. Nothing when the engine repaired nothing.
 */
export function changesSection(view: ApprovalView): string {
  if (!view.notes.some((note) => note.repair)) return '';
  const items = view.notes
    .map((note) => {
      const places = note.places > 1 ? ` ${he.changes.places(formatNumber(note.places))}` : '';
      return `<li value="${escapeHtml(note.no)}" data-code="${escapeHtml(note.code)}">${escapeHtml(lineText(note.code) + places)}</li>`;
    })
    .join('\n');
  const src = escapeHtml(changesPicturePath(view.token));
  const picture = view.changesPicture
    ? `<a class="changes-frame" href="${src}"><img src="${src}" alt="${escapeHtml(he.changes.pictureAlt)}"></a>
<p class="hint">${escapeHtml(he.changes.pictureHint)}</p>`
    : '';
  return `<section class="card" aria-labelledby="changes-heading">
<h2 id="changes-heading">${escapeHtml(he.changes.heading)}</h2>
<p>${escapeHtml(he.changes.intro)}</p>
${picture}
<ol class="changes">
${items}
</ol>
</section>`;
}

/**
 * `GET /a/{token}/changes.png`: the changes picture of the submission the link shows; the site's
 * 404 page for a dead link, a link with no repairs to show, and while the API is switched off.
 */
export async function approvalChangesRoute(c: Context, web: Web): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  const png = await web.core.approvalChangesPicture(c.req.param('token') ?? '');
  if (!png) return notFoundPage();
  return new Response(new Uint8Array(png), {
    status: 200,
    headers: {
      'content-type': 'image/png',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}
