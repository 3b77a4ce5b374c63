import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { type Core, SESSION_COOKIE, type SessionAccount, type Result } from '../core/index.ts';

const DAY_SECONDS = 24 * 60 * 60;

/** The session cookie's token, if the request carries one. */
export const sessionToken = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE) || undefined;

/**
 * The signed-in account behind the request's session cookie: `undefined` without a cookie or
 * for a dead session; an `AUTH_UNAVAILABLE` error when the store cannot answer.
 */
export const readSession = (c: Context, core: Core): Promise<Result<SessionAccount | undefined>> =>
  core.sessionAccount(sessionToken(c));

const isHttps = (core: Core): boolean => core.urls.siteUrl.startsWith('https:');

function cookie(core: Core, value: string, maxAgeSec: number): string {
  const parts = [`${SESSION_COOKIE}=${value}`, `Max-Age=${maxAgeSec}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (isHttps(core)) parts.push('Secure');
  return parts.join('; ');
}

/** `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, the whole site, Secure on an https site. */
export const sessionCookie = (core: Core, token: string): string =>
  cookie(core, encodeURIComponent(token), Math.round(core.config.site.sessionTtlDays * DAY_SECONDS));

/** `Set-Cookie` that removes the session cookie (same attributes, so the browser matches it). */
export const clearedSessionCookie = (core: Core): string => cookie(core, '', 0);
