import type { SessionAccount } from '../core/index.ts';
import { he } from './strings.ts';
import { STYLES } from './styles.ts';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Every page: Hebrew, right-to-left, no scripts, a strict Content-Security-Policy. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * For pages whose forms post with a session or a decision (the approval, confirmation, sign-in and
 * sign-up pages): the referrer goes to our own origin only, never elsewhere, which makes browsers
 * put the real Origin on the form's post instead of `null`, so the post handlers can refuse `null`.
 */
export const SAME_ORIGIN_REFERRER = { 'referrer-policy': 'same-origin' };

/**
 * Who is looking: a signed-in account, `undefined` for nobody signed in, or `null` when it is
 * not known (the session store did not answer), which shows no account links at all.
 */
export type Viewer = SessionAccount | undefined | null;

interface PageOptions {
  title: string;
  /** The main content, already escaped. */
  body: string;
  viewer?: Viewer;
  /** This page's path: the sign-in link brings the person back here. */
  here?: string;
  /** For pages behind a secret or a session: never index them. */
  noindex?: boolean;
}

/** The whole document around a page's content: head, styles, the site header with the account links. */
export function page(options: PageOptions): string {
  const title = options.title === he.siteName ? he.siteName : `${options.title} · ${he.siteName}`;
  return `<!doctype html>
<html lang="he" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
</head>
<body>
<a class="skip" href="#content">${escapeHtml(he.skipToContent)}</a>
${siteHeader(options.viewer, options.here)}
<main id="content" tabindex="-1">
${options.body}
</main>
</body>
</html>
`;
}

/** A path with a `next` parameter, for links to the sign-in and sign-up pages. */
export const withNext = (path: string, next: string | undefined): string =>
  next && next !== '/' ? `${path}?next=${encodeURIComponent(next)}` : path;

function siteHeader(viewer: Viewer, here: string | undefined): string {
  let account = '';
  if (viewer) {
    account = `<nav class="account" aria-label="${escapeHtml(he.header.accountNav)}">
<span class="who">${escapeHtml(he.header.signedInAs)} <bdi>${escapeHtml(viewer.email)}</bdi></span>
<form method="post" action="/signout"><button type="submit" class="link-button">${escapeHtml(he.header.signOut)}</button></form>
</nav>`;
  } else if (viewer === undefined) {
    account = `<nav class="account" aria-label="${escapeHtml(he.header.accountNav)}">
<a href="${escapeHtml(withNext('/signin', here))}">${escapeHtml(he.header.signIn)}</a>
<a href="${escapeHtml(withNext('/signup', here))}">${escapeHtml(he.header.signUp)}</a>
</nav>`;
  }
  return `<header class="site"><div class="bar">
<a class="brand" href="/">${escapeHtml(he.siteName)}</a>
${account}
</div></header>`;
}

/**
 * An HTML answer with the page headers; `headers` add to them or replace one of the same name.
 * Pages depend on the session, so nothing is cached.
 */
export function htmlResponse(html: string, status = 200, headers: HeadersInit = {}): Response {
  const all = new Headers({ ...PAGE_HEADERS, 'cache-control': 'no-store' });
  new Headers(headers).forEach((value, name) => all.set(name, value));
  return new Response(html, { status, headers: all });
}

/** A 303 See Other to a path on this site, after a form post or for a page that needs a session. */
export function seeOther(location: string, headers: HeadersInit = {}): Response {
  const all = new Headers({ location, 'cache-control': 'no-store' });
  new Headers(headers).forEach((value, name) => all.append(name, value));
  return new Response(null, { status: 303, headers: all });
}
