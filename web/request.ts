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
 * True when a form post comes from another site: `Sec-Fetch-Site` says so, or (for browsers that
 * do not send it) `Origin` names another origin. No header at all is not a browser form and passes;
 * `Origin: null` passes too, since our pages' `Referrer-Policy: no-referrer` makes browsers send it
 * for their own same-origin posts. The session cookie is SameSite=Lax in any case.
 */
export function isCrossSite(c: Context, siteUrl: string): boolean {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = c.req.header('origin');
  if (!origin || origin === 'null') return false;
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
