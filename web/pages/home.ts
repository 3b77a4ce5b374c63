import type { Context } from 'hono';
import type { DesignSummary } from '../../core/index.ts';
import type { Web } from '../context.ts';
import { formatDateTime, formatPrice } from '../format.ts';
import { escapeHtml, htmlResponse, page, type Viewer } from '../html.ts';
import { readSession } from '../session.ts';
import { sizeWords } from '../size-text.ts';
import { he } from '../strings.ts';
import { unavailablePage } from './unavailable.ts';

function designItem(design: DesignSummary): string {
  const product = he.products[design.productType];
  const href = `/designs/${encodeURIComponent(design.id)}`;
  return `<li class="design-item">
<a href="${escapeHtml(href)}">${escapeHtml(he.designs.item(product, formatDateTime(design.createdAt)))}</a>
<span class="hint">${escapeHtml(sizeWords(design.worn).size)} · ${escapeHtml(formatPrice(design.price.total, design.price.currency))}</span>
</li>`;
}

/** The signed-in person's designs, newest first, each a link to its page. */
function designsSection(designs: DesignSummary[]): string {
  const list = designs.length
    ? `<ul class="designs">\n${designs.map(designItem).join('\n')}\n</ul>`
    : `<p>${escapeHtml(he.designs.none)}</p>`;
  return `<section class="card" aria-labelledby="designs-heading">
<h2 id="designs-heading">${escapeHtml(he.designs.heading)}</h2>
${list}
</section>`;
}

/** The home page; a signed-in person also sees their designs (`designs` is set only then). */
const renderHomePage = (viewer: Viewer, designs?: DesignSummary[]): string =>
  page({
    title: he.home.title,
    viewer,
    body: `<h1>${escapeHtml(he.home.title)}</h1>
<p class="lead">${escapeHtml(he.home.intro)}</p>
${designs ? designsSection(designs) : ''}`,
  });

const homePage = (viewer: Viewer, designs?: DesignSummary[]): Response => htmlResponse(renderHomePage(viewer, designs));

/** `GET /`: the home page, with the account links for whoever is looking and a signed-in person's designs. */
export async function homeRoute(c: Context, web: Web): Promise<Response> {
  const session = await readSession(c, web.core);
  if (!session.ok) return unavailablePage();
  const designs = session.value ? await web.core.designsOfAccount(session.value.accountId) : undefined;
  return homePage(session.value, designs);
}
