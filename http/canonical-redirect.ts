import type { Context, MiddlewareHandler } from 'hono';
import { HEALTHZ_PATH, LIVEZ_PATH } from './healthz.ts';
import { setResponseHeader } from './request-log.ts';

/** One year; no `includeSubDomains`, so other services on sibling hosts are not forced onto HTTPS. */
export const HSTS_VALUE = 'max-age=31536000';

interface CanonicalRedirectOptions {
  /** The public origin (`SITE_URL`). Only an `https://` one redirects anything. */
  siteUrl: string;
  /** Read scheme and host from `X-Forwarded-Proto` / `X-Forwarded-Host` (set by our proxy). */
  trustProxy: boolean;
}

/** The value our own proxy put last, which a caller cannot forge (as for `X-Forwarded-For`). */
function lastForwarded(c: Context, name: string): string | undefined {
  const last = c.req
    .header(name)
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .pop();
  return last?.toLowerCase();
}

/**
 * With an `https://` site URL, a plain `http://` request or one to the `www.` host answers 308
 * (method and body kept) to the same path and query on the site URL's origin, for every method.
 * `Location` is built from the site URL, never from the request's host, so it cannot be steered
 * elsewhere. HTTPS answers carry `Strict-Transport-Security`. `/healthz` is exempt: probes inside
 * the network call the service by address over plain HTTP. With an `http://` site URL (local
 * development) nothing changes.
 */
export function canonicalRedirect(options: CanonicalRedirectOptions): MiddlewareHandler {
  const site = new URL(options.siteUrl);
  if (site.protocol !== 'https:') return (_c, next) => next();
  const wwwHost = `www.${site.host}`;

  return async (c, next) => {
    const url = new URL(c.req.url);
    const forwardedProto = options.trustProxy ? lastForwarded(c, 'x-forwarded-proto') : undefined;
    const forwardedHost = options.trustProxy ? lastForwarded(c, 'x-forwarded-host') : undefined;
    const secure = (forwardedProto ?? url.protocol.slice(0, -1)) === 'https';
    const host = forwardedHost ?? url.host.toLowerCase();

    if (c.req.path !== HEALTHZ_PATH && c.req.path !== LIVEZ_PATH && (!secure || host === wwwHost)) {
      const headers: Record<string, string> = { location: `${site.origin}${url.pathname}${url.search}` };
      if (secure) headers['strict-transport-security'] = HSTS_VALUE;
      return new Response(null, { status: 308, headers });
    }
    await next();
    if (secure) setResponseHeader(c, 'strict-transport-security', HSTS_VALUE);
  };
}
