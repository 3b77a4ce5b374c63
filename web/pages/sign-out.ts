import type { Context } from 'hono';
import type { Web } from '../context.ts';
import { seeOther } from '../html.ts';
import { isCrossSite } from '../request.ts';
import { clearedSessionCookie, sessionToken } from '../session.ts';
import { crossSitePage } from './refused.ts';

/** `POST /signout`: ends the session in the store, clears the cookie, 303 to the home page. */
export async function signOutSubmit(c: Context, web: Web): Promise<Response> {
  if (isCrossSite(c, web.core.urls.siteUrl, 'ours')) return crossSitePage();
  const token = sessionToken(c);
  if (token) await web.core.signOut(token);
  return seeOther('/', { 'set-cookie': clearedSessionCookie(web.core) });
}
