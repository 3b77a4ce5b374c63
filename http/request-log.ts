import type { Context, MiddlewareHandler } from 'hono';
import { type Logger, type Randomness, API_BASE_PATH } from '../core/index.ts';

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
  }
}

const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy's id may look like: UUIDs and the usual trace ids, nothing that could smuggle text. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Long enough for every real path; a crafted 16 KB path should not make a 16 KB log line. */
const MAX_LOGGED_PATH = 512;

/** Path segments that are keys in themselves (approval tokens), replaced by a placeholder in logs. */
const TOKEN_SEGMENTS = [/^(\/a\/)[^/]+/, new RegExp(`^(${API_BASE_PATH}/handoff/)[^/]+`)];

/** The path as it may be logged: no query string, approval tokens replaced, length bounded. */
export function loggablePath(path: string): string {
  let safe = path;
  for (const pattern of TOKEN_SEGMENTS) safe = safe.replace(pattern, '$1{token}');
  return safe.length > MAX_LOGGED_PATH ? `${safe.slice(0, MAX_LOGGED_PATH)}...` : safe;
}

/** The id `requestLog` gave this request (set before anything else runs). */
export const requestIdOf = (c: Context): string | undefined => c.get('requestId');

/** Sets a header on the answer, copying it first when it came with immutable headers. */
export function setResponseHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

interface RequestLogOptions {
  log: Logger;
  random: Randomness;
  /** Only then is an incoming `X-Request-Id` (set by our proxy) kept; otherwise callers could choose ids. */
  trustProxy: boolean;
}

/**
 * Gives every request an id, returns it as `X-Request-Id` on every answer (pages, API, redirects,
 * errors) and writes one access-log line per request. The line holds facts only: no query string,
 * no headers, no client address, approval tokens replaced. The duration is until the answer's
 * headers are ready (a streamed MCP answer may go on after it).
 */
export function requestLog(options: RequestLogOptions): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const incoming = options.trustProxy ? c.req.header(REQUEST_ID_HEADER) : undefined;
    const requestId = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : options.random.uuid();
    c.set('requestId', requestId);
    await next();
    setResponseHeader(c, REQUEST_ID_HEADER, requestId);
    options.log.info({
      msg: 'request',
      requestId,
      method: c.req.method,
      path: loggablePath(c.req.path),
      status: c.res.status,
      durationMs: Math.round(performance.now() - started),
    });
  };
}
