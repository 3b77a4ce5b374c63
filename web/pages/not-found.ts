import { escapeHtml, htmlResponse, page, type Viewer } from '../html.ts';
import { he } from '../strings.ts';

const renderNotFoundPage = (viewer: Viewer = undefined): string =>
  page({
    title: he.notFound.title,
    viewer,
    body: `<h1>${escapeHtml(he.notFound.title)}</h1>
<p>${escapeHtml(he.notFound.body)}</p>
<p><a href="/">${escapeHtml(he.notFound.home)}</a></p>`,
  });

/**
 * The site's own 404 page: unknown pages, the switched-off API, dead approval links, other
 * people's designs. Without a viewer it shows the signed-out header, so every 404 a person
 * without a session sees is the same page, byte for byte.
 */
export const notFoundPage = (viewer: Viewer = undefined): Response => htmlResponse(renderNotFoundPage(viewer), 404);
