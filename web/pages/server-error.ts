import { escapeHtml, htmlResponse, page } from '../html.ts';
import { he } from '../strings.ts';

const RETRY_AFTER_SEC = 30;

/**
 * 500 for a page whose handler failed unexpectedly (the app's `onError`). No account links: the
 * failure may be the session store itself, and the page must not need anything to render.
 */
export const serverErrorPage = (): Response =>
  htmlResponse(
    page({
      title: he.serverError.title,
      viewer: null,
      body: `<h1>${escapeHtml(he.serverError.title)}</h1>
<p>${escapeHtml(he.serverError.body)}</p>
<p><a href="/">${escapeHtml(he.notFound.home)}</a></p>`,
    }),
    500,
    { 'retry-after': String(RETRY_AFTER_SEC) },
  );
