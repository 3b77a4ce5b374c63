import { escapeHtml, htmlResponse, page } from '../html.ts';
import { he } from '../strings.ts';

const RETRY_AFTER_SEC = 30;

const renderUnavailablePage = (): string =>
  page({
    title: he.unavailable.title,
    viewer: null,
    body: `<h1>${escapeHtml(he.unavailable.title)}</h1>
<p>${escapeHtml(he.unavailable.body)}</p>`,
  });

/** 503 when the session store cannot answer (`AUTH_UNAVAILABLE`): no account links, retry in 30 s. */
export const unavailablePage = (): Response =>
  htmlResponse(renderUnavailablePage(), 503, { 'retry-after': String(RETRY_AFTER_SEC) });
