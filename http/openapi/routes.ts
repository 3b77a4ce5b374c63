import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Config, ServiceUrls } from '../../core/index.ts';
import { htmlResponse } from '../../web/html.ts';
import { API_CATALOG_CONTENT_TYPE, apiCatalogLink, buildApiCatalog } from './api-catalog.ts';
import { API_CATALOG_PATH, API_REFERENCE_PATH, buildOpenApiDocument, OPENAPI_PATH } from './document.ts';
import { renderReferencePage } from './reference-page.ts';

interface Published {
  body: string;
  etag: string;
}

const publish = (body: string): Published => ({
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/** A document that only changes with a deployment: revalidated on every use, 304 when unchanged. */
function documentAnswer(c: Context, doc: Published, contentType: string, extra: Record<string, string> = {}): Response {
  const headers = {
    'content-type': contentType,
    'cache-control': 'no-cache',
    etag: doc.etag,
    'x-content-type-options': 'nosniff',
    ...extra,
  };
  const known = c.req.header('if-none-match');
  if (known && known.split(',').some((tag) => tag.trim() === doc.etag))
    return new Response(null, { status: 304, headers });
  return new Response(doc.body, { status: 200, headers });
}

/**
 * The OpenAPI document, the RFC 9727 API catalogue and the API reference page, built once on
 * first use from the service's own configuration (read once at start, so they never go stale).
 * None of them exists while the API is switched off: those paths then fall through to the site's
 * 404 page like any unknown path (docs/decisions.md).
 */
export function registerOpenApiRoutes(
  app: Hono,
  options: { urls: ServiceUrls; config: Config; apiEnabled: boolean },
): void {
  if (!options.apiEnabled) return;
  const { urls, config } = options;
  let built: { openapi: Published; catalog: Published; page: string } | undefined;
  const documents = () => {
    if (built) return built;
    const openapi = buildOpenApiDocument(urls, config);
    built = {
      openapi: publish(JSON.stringify(openapi)),
      catalog: publish(JSON.stringify(buildApiCatalog(urls))),
      page: renderReferencePage(openapi),
    };
    return built;
  };

  app.get(OPENAPI_PATH, (c) => documentAnswer(c, documents().openapi, 'application/json; charset=utf-8'));
  app.get(API_CATALOG_PATH, (c) =>
    documentAnswer(c, documents().catalog, API_CATALOG_CONTENT_TYPE, { link: apiCatalogLink(urls) }),
  );
  app.get(API_REFERENCE_PATH, () => htmlResponse(documents().page));
}
