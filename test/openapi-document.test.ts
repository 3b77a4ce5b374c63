import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/config.ts';
import { errorCodes, errorStatus, type ErrorCode } from '../core/errors.ts';
import { serviceUrls } from '../core/urls.ts';
import { buildOpenApiDocument, documentPath } from '../http/openapi/document.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { apiRoutes } from '../http/routes/index.ts';
import { DocumentSchemas } from './helpers/openapi-schemas.ts';
import { removeDir, servicePerTest, SITE, startService } from './helpers/service.ts';

const service = servicePerTest();
const DOC_PATH = '/openapi/agent-v1.json';

const built = (): any => buildOpenApiDocument(serviceUrls(SITE), defaultConfig);

async function validate(doc: unknown) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
  return { ...result, version: validator.version };
}

/** Every `schema` in the document outside components, with where it sits. */
function inlineSchemas(value: unknown, at = ''): [string, unknown][] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === 'schema' ? [[`${at}/schema`, item] as [string, unknown]] : inlineSchemas(item, `${at}/${key}`),
  );
}

const resolveResponse = (doc: any, response: any) =>
  response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;

/** The codes each operation's error answers can carry, status by status. */
function declaredCodes(doc: any, operationId: string): Record<string, string[]> {
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      if (op.operationId !== operationId) continue;
      const out: Record<string, string[]> = {};
      for (const [status, value] of Object.entries<any>(op.responses)) {
        const schema = resolveResponse(doc, value).content?.['application/json']?.schema;
        const codes = schema?.properties?.error?.properties?.code?.enum;
        if (codes) out[status] = codes;
      }
      return out;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

describe('GET /openapi/agent-v1.json', () => {
  it('serves an OpenAPI 3.1.0 document, built from the service, that a 3.1 validator accepts', async () => {
    const response = await service.fetch(DOC_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc: any = await response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${SITE}/api/agent/v1`, description: 'The v1 API base' }]);
    expect(doc).toEqual(built());
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('is where capabilities.links.openapi points, and HEAD gives the same headers without a body', async () => {
    const capabilities: any = await (await service.api('/capabilities')).json();
    expect(capabilities.links.openapi).toBe(`${SITE}${DOC_PATH}`);
    const get = await service.fetch(DOC_PATH);
    const head = await service.fetch(DOC_PATH, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'cache-control'])
      expect(head.headers.get(name)).toBe(get.headers.get(name));
  });

  it('answers 304 when the client already holds this version (ETag)', async () => {
    const first = await service.fetch(DOC_PATH);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await service.fetch(DOC_PATH, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const stale = await service.fetch(DOC_PATH, { headers: { 'if-none-match': '"old"' } });
    expect(stale.status).toBe(200);
  });
});

describe('the validators the tests rely on', () => {
  it('the OpenAPI validator refuses a broken document', async () => {
    const badHeader = built();
    badHeader.paths['/jobs'].post.responses['201'].headers['X-Request-Id'] = { required: 'yes' };
    const badParameter = built();
    badParameter.paths['/jobs'].post.parameters = [{ name: 'body', in: 'body' }];
    const noInfo = built();
    delete noInfo.info;
    for (const doc of [badHeader, badParameter, noInfo]) expect((await validate(doc)).valid).toBe(false);
  });

  it('every schema in the document compiles as strict JSON Schema 2020-12, and a misspelt type does not', () => {
    const doc = built();
    const schemas = new DocumentSchemas(doc);
    for (const [where, schema] of inlineSchemas(doc.paths))
      expect(() => schemas.problems(where, schema, null), where).not.toThrow();
    for (const [where, schema] of inlineSchemas(doc.components))
      expect(() => schemas.problems(where, schema, null), where).not.toThrow();
    const broken = built();
    broken.components.schemas.Job.properties.id.type = 'strnig';
    expect(() => new DocumentSchemas(broken).problems('Job', { $ref: '#/components/schemas/Job' }, {})).toThrow();
  });
});

describe('what the document covers', () => {
  it('describes exactly the routes the app serves, with HEAD wherever GET', () => {
    const doc = built();
    const described = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const served = apiRoutes.flatMap((r) => [
      `${r.method} ${r.path}`,
      ...(r.method === 'GET' ? [`HEAD ${r.path}`] : []),
    ]);
    expect(described.sort()).toEqual(served.sort());
  });

  it("states each route with the route's own operation, under its method and path, one operationId each", () => {
    const doc = built();
    for (const route of apiRoutes) {
      const where = `${route.method} ${route.path}`;
      // A route that lost its operation fails here by name (the type asks for one, a cast can drop it).
      expect(typeof route.openapi, where).toBe('function');
      const own = route.openapi(defaultConfig);
      expect(own.summary, where).not.toBe('');
      expect(Object.keys(own.responses).length, where).toBeGreaterThan(0);
      const published = doc.paths[documentPath(route.path)]?.[route.method.toLowerCase()];
      expect(published, where).toEqual(JSON.parse(JSON.stringify({ ...own, tag: undefined, tags: [own.tag] })));
    }
    const ids = Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('publishes a route added to the list with no second edit, and nothing the list does not hold', () => {
    const extra = defineRoute({
      method: 'POST',
      path: '/jobs/:jobId/notes',
      openapi: () => ({
        operationId: 'createNote',
        tag: 'Jobs',
        summary: 'A route for this test only',
        description: 'Not served.',
        security: [],
        responses: { 200: { description: 'Fine.' } },
      }),
      handle: () => json(200, {}),
    });
    const withExtra: any = buildOpenApiDocument(serviceUrls(SITE), defaultConfig, [...apiRoutes, extra]);
    expect(withExtra.paths['/jobs/{jobId}/notes']).toEqual({
      post: {
        operationId: 'createNote',
        summary: 'A route for this test only',
        description: 'Not served.',
        security: [],
        responses: { 200: { description: 'Fine.' } },
        tags: ['Jobs'],
      },
    });
    const alone: any = buildOpenApiDocument(serviceUrls(SITE), defaultConfig, [extra]);
    expect(Object.keys(alone.paths)).toEqual(['/jobs/{jobId}/notes']);
  });

  it('gives each endpoint the statuses and error codes the contract lists for it', () => {
    const doc = built();
    // From agent-api-v1.md, endpoint by endpoint (405 is the shared MethodNotAllowed answer).
    const contract: Record<string, Record<string, string[]>> = {
      getCapabilities: { 500: ['PROCESSING_FAILED'] },
      createJob: {
        400: ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE', 'WIDTH_OUT_OF_RANGE'],
        409: ['IDEMPOTENCY_CONFLICT'],
        429: ['RATE_LIMITED'],
        500: ['PROCESSING_FAILED'],
      },
      getJob: { 404: ['NOT_FOUND'], 500: ['PROCESSING_FAILED'] },
      cancelJob: { 404: ['NOT_FOUND'], 409: ['JOB_LOCKED', 'JOB_EXPIRED'], 500: ['PROCESSING_FAILED'] },
      createSubmission: {
        400: ['INVALID_FILE', 'IMAGE_TOO_SMALL', 'IMAGE_TOO_LARGE', 'INVALID_REQUEST'],
        404: ['NOT_FOUND'],
        409: ['JOB_LOCKED', 'JOB_EXPIRED', 'JOB_CANCELLED', 'TOO_MANY_SUBMISSIONS', 'SUBMISSION_IN_PROGRESS'],
        413: ['FILE_TOO_LARGE'],
        415: ['UNSUPPORTED_FORMAT'],
        429: ['RATE_LIMITED'],
        500: ['PROCESSING_FAILED'],
        502: ['VECTORIZER_UNAVAILABLE', 'PROCESSING_FAILED'],
      },
      getSubmission: { 404: ['NOT_FOUND'], 500: ['PROCESSING_FAILED'] },
      getCutoutsSvg: { 404: ['NOT_FOUND'], 500: ['PROCESSING_FAILED'] },
      getPreviewSvg: { 404: ['NOT_FOUND'], 500: ['PROCESSING_FAILED'] },
      getFindingsPng: { 404: ['NOT_FOUND'], 500: ['PROCESSING_FAILED'] },
      adoptDesign: {
        400: ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE'],
        401: ['ACCOUNT_REQUIRED'],
        404: ['NOT_FOUND'],
        409: ['ALREADY_APPROVED', 'SUBMISSION_SUPERSEDED'],
        429: ['RATE_LIMITED'],
        500: ['PROCESSING_FAILED'],
        503: ['AUTH_UNAVAILABLE'],
      },
      // submissionNo (400, SUBMISSION_SUPERSEDED) is an addition to the contract (issue 25).
      declineDesign: {
        400: ['INVALID_REQUEST'],
        404: ['NOT_FOUND'],
        409: ['JOB_LOCKED', 'SUBMISSION_SUPERSEDED'],
        500: ['PROCESSING_FAILED'],
      },
    };
    for (const [operationId, statuses] of Object.entries(contract)) {
      const declared = declaredCodes(doc, operationId);
      expect(Object.fromEntries(Object.entries(declared).map(([s, c]) => [s, [...c].sort()])), operationId).toEqual(
        Object.fromEntries(Object.entries(statuses).map(([s, c]) => [s, [...c].sort()])),
      );
    }
  });

  it('names every envelope code of the catalogue somewhere, 405 and unknown paths included', () => {
    const envelopeCodes = errorCodes.filter((code: ErrorCode) => errorStatus(code) !== undefined);
    const doc = built();
    const named = new Set<string>(
      inlineSchemas(doc).flatMap(
        ([, schema]: [string, any]) => schema?.properties?.error?.properties?.code?.enum ?? [],
      ),
    );
    expect([...named].sort()).toEqual([...envelopeCodes].sort());
  });

  it('declares X-Request-Id, Cache-Control, nosniff and frame-ancestors on every answer, Retry-After where the contract sends it, Allow on 405', () => {
    const doc = built();
    const answers: [string, any][] = [
      ...Object.entries<any>(doc.paths).flatMap(([path, item]) =>
        Object.entries<any>(item).flatMap(([method, op]) =>
          Object.entries<any>(op.responses).map(([status, r]): [string, any] => [
            `${method} ${path} ${status}`,
            resolveResponse(doc, r),
          ]),
        ),
      ),
      ...Object.entries<any>(doc.components.responses).map(([name, r]): [string, any] => [name, r]),
    ];
    const headerOf = (response: any, name: string) => {
      const header = response.headers?.[name];
      return header?.$ref ? doc.components.headers[header.$ref.split('/').pop()] : header;
    };
    for (const [where, response] of answers) {
      expect(headerOf(response, 'X-Request-Id')?.required, where).toBe(true);
      expect(headerOf(response, 'Cache-Control')?.schema, where).toEqual({ type: 'string', const: 'no-store' });
      expect(headerOf(response, 'X-Content-Type-Options')?.schema, where).toEqual({ type: 'string', const: 'nosniff' });
      expect(headerOf(response, 'Content-Security-Policy')?.required, where).toBe(true);
      const status = Number(where.split(' ').pop()) || 0;
      if ([429, 500, 502, 503].includes(status)) expect(headerOf(response, 'Retry-After')?.required, where).toBe(true);
      if (status === 303) expect(headerOf(response, 'Location')?.required, where).toBe(true);
    }
    expect(headerOf(doc.components.responses.MethodNotAllowed, 'Allow').required).toBe(true);
    expect(headerOf(doc.components.responses.RateLimited, 'Retry-After').required).toBe(true);
    expect(headerOf(doc.paths['/jobs/{jobId}/submissions'].post.responses['409'], 'Retry-After').required).toBe(false);
  });

  it('lists RateLimit and RateLimit-Policy on the answers of the rate-limited operations only', () => {
    const doc = built();
    const withRateLimit: Record<string, string[]> = {};
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const statuses = Object.entries<any>(op.responses)
          .filter(([, r]) => {
            const headers = resolveResponse(doc, r).headers ?? {};
            return 'RateLimit' in headers || 'RateLimit-Policy' in headers;
          })
          .map(([status]) => status);
        if (statuses.length) withRateLimit[op.operationId] = statuses.sort();
      }
    }
    // Every answer the buckets can have counted or refused; 303 form redirects and the answers
    // decided before the rate limits (404 secret, 413, 415, file 400s) never carry them.
    expect(withRateLimit).toEqual({
      createJob: ['200', '201', '400', '409', '429'],
      createSubmission: ['200', '409', '422', '429', '502'],
      adoptDesign: ['200', '201', '400', '404', '409', '429'],
    });
    const { RateLimit, RateLimitPolicy } = doc.components.headers;
    expect(RateLimitPolicy.description).toMatch(/draft-ietf-httpapi-ratelimit-headers/);
    expect(new RegExp(RateLimitPolicy.schema.pattern).test(RateLimitPolicy.example)).toBe(true);
    expect(new RegExp(RateLimit.schema.pattern).test(RateLimit.example)).toBe(true);
    expect(
      new RegExp(RateLimit.schema.pattern).test('"jobsPerHourPerIp";r=0;t=3600, "globalJobsPerDay";r=0;t=43200'),
    ).toBe(true);
    expect(new RegExp(RateLimit.schema.pattern).test('jobsPerHourPerIp;r=1')).toBe(false);
  });

  it('takes its schemas from the zod contract: the secret pattern and the job statuses', () => {
    const doc = built();
    expect(doc.components.schemas.CreatedJob.properties.credentials.properties.jobSecret.pattern).toBe(
      '^ajs_[A-Za-z0-9_-]{43}$',
    );
    expect(doc.components.schemas.Job.properties.status.enum).toEqual([
      'open',
      'ready',
      'approved',
      'declined',
      'cancelled',
      'expired',
    ]);
    expect(doc.components.schemas.CreateJobRequest.additionalProperties).toBe(false);
    expect(doc.components.securitySchemes.jobSecret).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('switched off', () => {
  it('the document, the catalogue and the reference page answer exactly like an unknown site path', async () => {
    const off = await startService({ apiEnabled: false });
    try {
      for (const method of ['GET', 'HEAD', 'POST']) {
        const reference = await off.fetch('/no-such-page-anywhere', { method });
        const referenceBody = await reference.text();
        for (const path of [DOC_PATH, '/docs/api', '/.well-known/api-catalog']) {
          const response = await off.fetch(path, { method });
          expect(response.status, `${method} ${path}`).toBe(404);
          expect(response.headers.get('content-type')).toBe(reference.headers.get('content-type'));
          expect(await response.text()).toBe(referenceBody);
        }
      }
    } finally {
      await off.close();
      removeDir(off.dir);
    }
  });
});
