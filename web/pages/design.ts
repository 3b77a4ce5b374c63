import type { Context } from 'hono';
import type { DesignView } from '../../core/index.ts';
import type { Web } from '../context.ts';
import { formatDateTime } from '../format.ts';
import { pieceSections } from '../fragments.ts';
import { designPictures } from '../piece-pictures.ts';
import { escapeHtml, htmlResponse, page, seeOther, type Viewer } from '../html.ts';
import { readSession } from '../session.ts';
import { nextStepsSection } from '../next-steps.ts';
import { he } from '../strings.ts';
import { notFoundPage } from './not-found.ts';
import { unavailablePage } from './unavailable.ts';

interface DesignPageInput {
  design: DesignView;
  viewer: Viewer;
  thicknessMm: number;
}

const designPath = (id: string): string => `/designs/${encodeURIComponent(id)}`;

/** The person's design (stands in for the design editor): preview, dimensions, price, the cutting file. */
export function renderDesignPage({ design, viewer, thicknessMm }: DesignPageInput): string {
  const path = designPath(design.id);
  return page({
    title: he.design.title,
    viewer,
    here: path,
    noindex: true,
    body: `<h1>${escapeHtml(he.design.heading(he.products[design.productType]))}</h1>
<p class="lead">${escapeHtml(he.design.saved)} ${escapeHtml(he.design.created(formatDateTime(design.createdAt)))}</p>
${nextStepsSection(design.price)}
${pieceSections({ productType: design.productType, geometry: design.geometry, price: design.price, pictures: designPictures(design), thicknessMm, worn: design.worn })}
<section class="card" aria-labelledby="file-heading">
<h2 id="file-heading">${escapeHtml(he.design.fileHeading)}</h2>
<p>${escapeHtml(he.design.fileBody)}</p>
<p><a class="btn btn-secondary" href="${escapeHtml(`${path}/cutouts.svg`)}" download>${escapeHtml(he.design.download)}</a></p>
</section>`,
  });
}

type Owned = { ok: true; design: DesignView; viewer: NonNullable<Viewer> } | { ok: false; response: Response };

/** The design behind `:designId` if the signed-in person owns it; otherwise the answer to give. */
async function ownDesign(c: Context, web: Web): Promise<Owned> {
  const id = c.req.param('designId') ?? '';
  const session = await readSession(c, web.core);
  if (!session.ok) return { ok: false, response: unavailablePage() };
  if (!session.value) return { ok: false, response: seeOther(`/signin?next=${encodeURIComponent(designPath(id))}`) };
  const design = await web.core.designForAccount(id, session.value.accountId);
  if (!design) return { ok: false, response: notFoundPage(session.value) };
  return { ok: true, design, viewer: session.value };
}

/** `GET /designs/{designId}`: the owner's page; sign-in first without a session; 404 for anyone else. */
export async function designPage(c: Context, web: Web): Promise<Response> {
  const owned = await ownDesign(c, web);
  if (!owned.ok) return owned.response;
  const thicknessMm = web.core.config.manufacturing.thicknessMm;
  return htmlResponse(renderDesignPage({ design: owned.design, viewer: owned.viewer, thicknessMm }));
}

/** `GET /designs/{designId}/cutouts.svg`: the cutting file as a download, for the owner only. */
export async function designCutouts(c: Context, web: Web): Promise<Response> {
  const owned = await ownDesign(c, web);
  if (!owned.ok) return owned.response;
  const filename = `design-${owned.design.id.replace(/[^A-Za-z0-9-]/g, '')}.svg`;
  return new Response(owned.design.cutoutsSvg, {
    status: 200,
    headers: {
      'content-type': 'image/svg+xml; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
