import type { MiddlewareHandler } from 'hono';
import { setResponseHeader } from './request-log.ts';

/** No page of any site, ours included, may show an answer in a frame. */
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

const hasFrameAncestors = (policy: string): boolean =>
  policy.split(';').some((directive) => directive.trim().toLowerCase().startsWith('frame-ancestors'));

/**
 * Every answer (API, OpenAPI, MCP, pages, errors and the 500 of `onError`) carries
 * `X-Content-Type-Options: nosniff`, so a browser never reads a JSON answer or an SVG as
 * something it could run, and a Content-Security-Policy with `frame-ancestors 'none'`, so no
 * other site can frame one. An answer that set its own policy (the pages, the SVG files) keeps
 * it as it is, gaining `frame-ancestors` only when it has none: nothing here loosens a header.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has('x-content-type-options')) setResponseHeader(c, 'x-content-type-options', 'nosniff');
    const policy = c.res.headers.get('content-security-policy');
    if (policy === null) setResponseHeader(c, 'content-security-policy', FRAME_ANCESTORS_NONE);
    else if (!hasFrameAncestors(policy))
      setResponseHeader(c, 'content-security-policy', `${policy.replace(/[\s;]+$/, '')}; ${FRAME_ANCESTORS_NONE}`);
  };
}
