import { escapeHtml, htmlResponse, page } from '../html.ts';
import { he } from '../strings.ts';

const render = (text: { title: string; body: string }): string =>
  page({
    title: text.title,
    body: `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.body)}</p>
<p><a href="/">${escapeHtml(he.notFound.home)}</a></p>`,
  });

/** 403 for a form posted to us from another site. */
export const crossSitePage = (): Response => htmlResponse(render(he.crossSite), 403);

/** 413 for a form body over the limit. */
export const tooLargePage = (): Response => htmlResponse(render(he.tooLarge), 413);
