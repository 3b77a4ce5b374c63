import type { Context } from 'hono';

/**
 * A redirect target from a `next` parameter, or `undefined` when it is not one of our own paths.
 * Only a same-site relative path is accepted: it starts with `/`, and not `//` or `/\` (which
 * browsers read as another host); no backslashes anywhere, and nothing but printable ASCII, since
 * it becomes a `Location` header (our own links percent-encode everything else).
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  if (/[^\x21-\x7e]|\\/.test(value)) return undefined;
  return value;
}

/**
 * Whether `Origin: null` may be one of our own posts. Browsers send it for a post from a page with
 * `Referrer-Policy: no-referrer` (most of ours), but also from a sandboxed frame or a `data:` page
 * on any site. `'ours'` accepts it: sign-out, whose form sits in every page's header. `'foreign'`
 * refuses it: sign-in, sign-up and the approval page's decline, whose pages send `same-origin`
 * (`SAME_ORIGIN_REFERRER`) so that their own posts carry the real Origin, and a forged post cannot
 * hide behind `null`.
 */
type NullOrigin = 'ours' | 'foreign';

/**
 * True when a form post comes from another site: `Sec-Fetch-Site` says so, or (for browsers that
 * do not send it) `Origin` names another origin, or is `null` where that is not ours. No header at
 * all is not a browser form and passes. The session cookie is SameSite=Lax in any case.
 */
export function isCrossSite(c: Context, siteUrl: string, nullOrigin: NullOrigin): boolean {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = c.req.header('origin');
  if (!origin) return false;
  if (origin === 'null') return nullOrigin === 'foreign';
  return origin !== new URL(siteUrl).origin;
}

/** The text fields of a form post (urlencoded or multipart); files and repeats are ignored. */
export async function formFields(c: Context): Promise<Record<string, string>> {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    return {}; // an unreadable body is an empty form: the page asks again
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  return fields;
}
