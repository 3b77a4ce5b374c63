import type { Context } from 'hono';
import type { ProductType, Geometry, ApprovalView, DesignView, PiecePictureSizes, PictureKind } from '../core/index.ts';
import type { Web } from './context.ts';
import { formatMm, formatNumber } from './format.ts';
import { escapeHtml, seeOther } from './html.ts';
import { notFoundPage } from './pages/not-found.ts';
import { unavailablePage } from './pages/unavailable.ts';
import { approvalPath } from './paths.ts';
import { readSession } from './session.ts';
import { he } from './strings.ts';

/** A picture on the page: where it is served and its size in pixels. */
interface PictureLink {
  src: string;
  width: number;
  height: number;
}

/** The piece's two pictures, and the cuff's gap the worn one shows (0 for a ring). */
export interface PiecePictures {
  worn: PictureLink;
  flat: PictureLink;
  gapMm: number;
}

function links(base: string, sizes: PiecePictureSizes, productType: ProductType, gapMm: number): PiecePictures {
  const link = (kind: PictureKind): PictureLink => ({ src: `${base}/${kind}.png`, ...sizes[kind] });
  return { worn: link('worn'), flat: link('flat'), gapMm: productType === 'ring' ? 0 : gapMm };
}

/** The pictures of the submission an approval link shows, served under the link itself. */
export const approvalPictures = (view: ApprovalView): PiecePictures =>
  links(approvalPath(view.token), view.pictures, view.productType, view.wear.gapMm);

/** The pictures of a person's design, served to its owner under the design's page. */
export const designPictures = (design: DesignView): PiecePictures =>
  links(`/designs/${encodeURIComponent(design.id)}`, design.pictures, design.productType, design.wear.gapMm);

function figure(kind: PictureKind, link: PictureLink, alt: string, caption: string): string {
  const src = escapeHtml(link.src);
  return `<figure class="piece-figure ${kind}">
<a class="piece-frame" href="${src}"><img src="${src}" width="${link.width}" height="${link.height}" alt="${escapeHtml(alt)}" decoding="async"></a>
<figcaption>${escapeHtml(caption)}</figcaption>
</figure>`;
}

/**
 * The piece as it will be: bent round as worn (the cuff with its gap, the ring closed), then the
 * flat blank with a millimetre ruler. Each picture opens full size when tapped.
 */
export function piecePicturesSection(piece: {
  productType: ProductType;
  geometry: Geometry;
  pictures: PiecePictures;
}): string {
  const { productType, geometry, pictures } = piece;
  const length = formatMm(geometry.lengthMm);
  const width = formatMm(geometry.widthMm);
  const gap = formatMm(pictures.gapMm);
  const worn =
    productType === 'ring'
      ? figure('worn', pictures.worn, he.pictures.worn.ring.alt(length, width), he.pictures.worn.ring.caption)
      : figure(
          'worn',
          pictures.worn,
          he.pictures.worn.bracelet.alt(length, width, gap),
          he.pictures.worn.bracelet.caption(gap),
        );
  const dimensions = he.facts.dimensionsValue(
    formatNumber(geometry.lengthMm),
    formatNumber(geometry.widthMm),
    he.units.mm,
  );
  const flat = figure('flat', pictures.flat, he.pictures.flat.alt(dimensions), he.pictures.flat.caption);
  return `<section class="card" aria-labelledby="pictures-heading">
<h2 id="pictures-heading">${escapeHtml(he.pictures.heading)}</h2>
${worn}
${flat}
<p class="hint">${escapeHtml(he.pictures.enlarge)} ${escapeHtml(he.pictures.note)}</p>
</section>`;
}

const pngHeaders = (cacheControl: string): Record<string, string> => ({
  'content-type': 'image/png',
  'cache-control': cacheControl,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});

/**
 * `GET /a/{token}/flat.png`, `/a/{token}/worn.png`: a picture of the piece the link shows; the
 * site's 404 page for a dead link and while the API is switched off.
 */
export async function approvalPictureRoute(c: Context, web: Web, kind: PictureKind): Promise<Response> {
  if (!web.apiEnabled) return notFoundPage();
  const png = await web.core.approvalPiecePicture(c.req.param('token') ?? '', kind);
  if (!png) return notFoundPage();
  return new Response(new Uint8Array(png), { status: 200, headers: pngHeaders('no-store') });
}

/**
 * `GET /designs/{designId}/flat.png`, `/worn.png`: for the design's owner only, as the design
 * page: sign-in first (then back to the design page) without a session, 404 for anyone else.
 */
export async function designPictureRoute(c: Context, web: Web, kind: PictureKind): Promise<Response> {
  const id = c.req.param('designId') ?? '';
  const session = await readSession(c, web.core);
  if (!session.ok) return unavailablePage();
  if (!session.value) return seeOther(`/signin?next=${encodeURIComponent(`/designs/${encodeURIComponent(id)}`)}`);
  const png = await web.core.designPiecePicture(id, session.value.accountId, kind);
  if (!png) return notFoundPage(session.value);
  return new Response(new Uint8Array(png), { status: 200, headers: pngHeaders('private, no-store') });
}
