import { Hono, type Context } from 'hono';
import {
  type Core,
  coreError,
  noSuchEndpoint,
  errorText,
  type Logger,
  type Randomness,
  API_BASE_PATH,
} from '../core/index.ts';
import { notFoundPage, registerWebRoutes, serverErrorPage } from '../web/index.ts';
import { canonicalRedirect } from './canonical-redirect.ts';
import { clientAddress } from './client-address.ts';
import { requestAccount } from './handoff.ts';
import { HEALTHZ_PATH, LIVEZ_PATH, registerHealthz, type ReadinessCheck } from './healthz.ts';
import { API_CATALOG_PATH, OPENAPI_PATH } from './openapi/document.ts';
import { registerOpenApiRoutes } from './openapi/routes.ts';
import { loggablePath, requestIdOf, requestLog } from './request-log.ts';
import { errorResponse } from './respond.ts';
import { securityHeaders } from './security-headers.ts';
import { apiRoutes } from './routes/index.ts';
import type { RouteEnv } from './route.ts';

interface AppOptions {
  core: Core;
  log: Logger;
  /** Request ids. */
  random: Randomness;
  /** The checks behind `/healthz` (readiness), by name. */
  readiness: Record<string, ReadinessCheck>;
  apiEnabled: boolean;
  trustProxy: boolean;
  /** Machine endpoints served beside the API (the MCP endpoint), built by the composition root. */
  endpoints: readonly Endpoint[];
}

/**
 * An endpoint the app serves at one path without knowing what it speaks. Like the API, it is
 * absent (the site's 404 page) while the agent API is switched off, and a throw answers JSON.
 */
interface Endpoint {
  path: string;
  /** Answers one request; `clientAddress` as the rate limits count it (`TRUST_PROXY` applied). */
  handle(request: Request, clientAddress: string): Promise<Response>;
}

/** A top-level page load: the browser says so (Sec-Fetch-Mode), or asks for HTML first. */
function isBrowserNavigation(c: Context): boolean {
  const mode = c.req.header('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (c.req.header('accept') ?? '').startsWith('text/html');
}

const isApiPath = (path: string): boolean => path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`);

/**
 * The whole service as one hono app: the v1 API under its base, the given endpoints beside it
 * (MCP), the site's pages around them.
 */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  const env: RouteEnv = { core: options.core, trustProxy: options.trustProxy };
  const endpointPaths = options.endpoints.map((endpoint) => endpoint.path);
  /** Paths that machines call and that answer JSON; every other path is a page, for people. */
  const isMachinePath = (path: string): boolean =>
    isApiPath(path) || [...endpointPaths, OPENAPI_PATH, API_CATALOG_PATH, HEALTHZ_PATH, LIVEZ_PATH].includes(path);
  const switchedOff = (path: string): boolean =>
    isApiPath(path) || path === API_CATALOG_PATH || endpointPaths.includes(path);

  // The request id and access log wrap everything, redirects included; see docs/edge.md.
  app.use('*', requestLog(options));
  app.use('*', securityHeaders());
  app.use('*', canonicalRedirect({ siteUrl: options.core.urls.siteUrl, trustProxy: options.trustProxy }));
  registerHealthz(app, { checks: options.readiness, log: options.log });

  app.use('*', async (c, next) => {
    // Switched off: the API, its catalogue and MCP are indistinguishable from unknown site paths.
    if (!options.apiEnabled && switchedOff(c.req.path)) return notFoundPage();
    await next();
  });

  // A person who follows an API link in a browser is sent home (or shown the 404 page when
  // signed in): the API is for HTTP clients. Only page loads count, never fetches or agents.
  app.use('/api/*', async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isBrowserNavigation(c)) return next();
    const session = await requestAccount(c, options.core);
    if (session.ok && session.account) return notFoundPage();
    return new Response(null, { status: 302, headers: { location: '/', 'cache-control': 'no-store' } });
  });

  const methodsByPath = new Map<string, string[]>();
  for (const route of apiRoutes) {
    const path = `${API_BASE_PATH}${route.path}`;
    app.on(route.method, path, (c) => route.handle(c, env));
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method]);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.all(path, () => errorResponse(coreError('METHOD_NOT_ALLOWED'), { allow }));
  }
  app.all(API_BASE_PATH, () => errorResponse(noSuchEndpoint()));
  app.all(`${API_BASE_PATH}/*`, () => errorResponse(noSuchEndpoint()));

  registerOpenApiRoutes(app, {
    urls: options.core.urls,
    config: options.core.config,
    apiEnabled: options.apiEnabled,
  });
  for (const endpoint of options.endpoints) {
    app.all(endpoint.path, (c) => endpoint.handle(c.req.raw, clientAddress(c, options.trustProxy)));
  }
  registerWebRoutes(app, options.core, {
    apiEnabled: options.apiEnabled,
    clientAddress: (c) => clientAddress(c, options.trustProxy),
  });
  app.notFound(() => notFoundPage());

  app.onError((error, c: Context) => {
    options.log.error({
      msg: 'unexpected error',
      requestId: requestIdOf(c),
      method: c.req.method,
      path: loggablePath(c.req.path),
      err: errorText(error),
    });
    return isMachinePath(c.req.path) ? errorResponse(coreError('PROCESSING_FAILED')) : serverErrorPage();
  });
  return app;
}
