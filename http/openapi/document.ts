import { CONTRACT_VERSION, type Config, type ServiceUrls } from '../../core/index.ts';
import type { ApiRoute } from '../route.ts';
import { apiRoutes } from '../routes/index.ts';
import { componentSchemas } from './components.ts';
import type { Operation } from './operation.ts';
import {
  headersFor,
  parameters,
  RETRY_LATER_SEC,
  securitySchemes,
  sharedResponses,
  type OpenApiObject,
} from './responses.ts';

/** Where the site publishes its API description, its catalogue and its reference page. */
export const OPENAPI_PATH = '/openapi/agent-v1.json';
export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const API_REFERENCE_PATH = '/docs/api';

/** What the API is for and its conventions, with the numbers of the live configuration. */
function overview(config: Config): string {
  return `Turn a flat black-on-white PNG into a laser-cut brass bracelet or ring design, with a human approval step. Read GET /capabilities, open a job with POST /jobs (the 201 carries the job secret, once), upload PNGs to the job until one is ready (200) or fix every validation error's agent_instruction (422), give the person approval.url (a Hebrew, right-to-left web page; tell them so), then poll GET /jobs/{jobId} at most every ${config.limits.pollIntervalSec} seconds to learn approval.status.

Conventions:
- JSON in and out, UTF-8; SVG files are image/svg+xml, the findings picture image/png. Every answer carries X-Request-Id, Cache-Control: no-store, X-Content-Type-Options: nosniff and a Content-Security-Policy with frame-ancestors 'none'.
- HEAD is supported wherever GET is. Any other unsupported method (OPTIONS included) answers 405 METHOD_NOT_ALLOWED with an Allow header (components.responses.MethodNotAllowed); OPTIONS is never listed, HEAD is listed whenever GET is.
- A path under the base that is not an endpoint answers 404 NOT_FOUND "No such endpoint." (components.responses.NoSuchEndpoint).
- Errors use the envelope {"error": {code, message, agent_instruction?, retryable?}}; codes come only from capabilities.errorCodes. Retry-After (seconds) comes with 429, 409 SUBMISSION_IN_PROGRESS, 500, 502 and 503, always with retryable true. Do not retry 400, 404, 405, 409 (other than in progress), 413, 415 or 422 unchanged.
- Rate limits: the answers of POST /jobs, POST /jobs/{jobId}/submissions and the adopt route that the buckets counted or refused carry RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers): pace yourself by r (requests left in the closest bucket) and t (seconds until one more is free); on a 429 follow Retry-After. GET /capabilities and the reads have no rate limit and no such headers.
- HTTPS only: plain http:// and www. redirect with 308. Browser page loads under /api/ are sent to the home page: use an HTTP client.
- Switched off: while the API is off, every path under the base, /.well-known/api-catalog, this document and the reference page answer the site's 404 page (text/html), for every method. A 404 page from GET /capabilities means the API is not open yet.
- A request the hosting platform cuts off can end in a non-JSON 5xx: treat it as a lost response, wait about ${RETRY_LATER_SEC} seconds, read GET /jobs/{jobId} and resend the same bytes once if latestSubmission does not show the upload.
- Never send the person's story, never resubmit an unchanged image after a 422, never order on the person's behalf.`;
}

const TAGS = [
  { name: 'Discovery', description: 'What the service makes, its limits and its error catalogue.' },
  { name: 'Jobs', description: 'A job holds one product, size and width, its submissions and its approval link.' },
  {
    name: 'Submissions',
    description: 'Uploaded drawings and their outcomes, cutting SVG, preview and findings picture.',
  },
  { name: 'Approval page', description: "Called by the person's approval page, never by agents." },
];

/** A route's hono path (`/jobs/:jobId`) as an OpenAPI path template (`/jobs/{jobId}`). */
export const documentPath = (routePath: string): string => routePath.replace(/:(\w+)/g, '{$1}');

/** HEAD answers GET's statuses and headers without a body. */
function headOf(path: string, get: Operation): OpenApiObject {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const resolved = '$ref' in response ? sharedResponses[String(response.$ref).split('/').pop()!]! : response;
      const { content: _content, ...withoutBody } = resolved;
      return [status, withoutBody];
    }),
  );
  return {
    operationId: get.operationId.replace(/^get/, 'head'),
    tags: [get.tag],
    summary: `${get.summary} (headers only)`,
    description: `The answer of GET ${path} without its body.`,
    security: get.security,
    ...(get.parameters ? { parameters: get.parameters } : {}),
    responses,
  };
}

/** Every route in the order the app lists them, each stated by its own `openapi`; HEAD follows GET. */
function pathItems(routes: readonly ApiRoute[], config: Config): Record<string, OpenApiObject> {
  const paths: Record<string, OpenApiObject> = {};
  for (const route of routes) {
    const path = documentPath(route.path);
    const op = route.openapi(config);
    const { tag, ...rest } = op;
    const item = (paths[path] ??= {});
    item[route.method.toLowerCase()] = { ...rest, tags: [tag] };
    if (route.method === 'GET') item.head = headOf(path, op);
  }
  return paths;
}

/**
 * The OpenAPI 3.1.0 description of the v1 API: every endpoint the app serves with its request,
 * answers, headers and error codes, its schemas converted from the zod schemas the service itself
 * uses, every number in its text read from `config`.
 */
export function buildOpenApiDocument(
  urls: ServiceUrls,
  config: Config,
  routes: readonly ApiRoute[] = apiRoutes,
): OpenApiObject {
  // A copy: the shared answers and parameters are module data that no caller may change.
  return structuredClone({
    openapi: '3.1.0',
    info: {
      title: 'Laser-cut jewellery design job API',
      version: CONTRACT_VERSION,
      summary: 'PNG drawings to laser-cut brass bracelets and rings, approved by a person.',
      description: overview(config),
      license: { name: 'GPL-2.0-only', identifier: 'GPL-2.0-only' },
    },
    servers: [{ url: urls.apiBase, description: 'The v1 API base' }],
    externalDocs: { description: 'API reference page', url: `${urls.siteUrl}${API_REFERENCE_PATH}` },
    tags: TAGS,
    security: [],
    paths: pathItems(routes, config),
    components: {
      schemas: componentSchemas(config),
      responses: sharedResponses,
      parameters,
      headers: headersFor(config),
      securitySchemes,
    },
  });
}
