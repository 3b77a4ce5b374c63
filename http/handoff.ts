import type { Context } from 'hono';
import type { CoreError, SessionAccount, Core } from '../core/index.ts';
import { readSession } from '../web/session.ts';
import { mediaType } from './read-body.ts';

/** The approval page posts plain HTML forms; everyone else sends JSON (decisions §5). */
export const isFormPost = (c: Context): boolean =>
  mediaType(c.req.header('content-type')) === 'application/x-www-form-urlencoded';

/**
 * A request from another site is treated as having no session (its cookie is not trusted).
 * Browsers say where a request came from in Sec-Fetch-Site; without it, Origin decides. The
 * pages whose forms post here send their referrer to our origin (`SAME_ORIGIN_REFERRER`), so a
 * browser's own post carries the real Origin; `Origin: null` (a sandboxed frame, a `data:` page on
 * any site) is not proof of anything and counts as foreign.
 */
export function fromOurSite(c: Context, siteUrl: string): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site) return site === 'same-origin';
  const origin = c.req.header('origin');
  return origin === undefined || origin === new URL(siteUrl).origin;
}

/** The signed-in account behind the request's session cookie, if the request may use it. */
export async function requestAccount(
  c: Context,
  core: Core,
): Promise<{ ok: true; account: SessionAccount | undefined } | { ok: false; error: CoreError }> {
  if (!fromOurSite(c, core.urls.siteUrl)) return { ok: true, account: undefined };
  const result = await readSession(c, core);
  return result.ok ? { ok: true, account: result.value } : { ok: false, error: result.error };
}
