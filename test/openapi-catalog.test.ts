import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/config.ts';
import { serviceUrls } from '../core/urls.ts';
import { buildOpenApiDocument } from '../http/openapi/document.ts';
import { renderReferencePage } from '../http/openapi/reference-page.ts';
import { PAGE_HEADERS } from '../web/html.ts';
import { servicePerTest, SITE } from './helpers/service.ts';

const service = servicePerTest();
const CATALOG = '/.well-known/api-catalog';
const LINKSET_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

describe('GET /.well-known/api-catalog (RFC 9727)', () => {
  it('answers a linkset with the RFC 9727 profile, anchored at the API base', async () => {
    const response = await service.fetch(CATALOG);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(LINKSET_TYPE);
    const body: any = await response.json();
    expect(Object.keys(body)).toEqual(['linkset']);
    expect(body.linkset).toHaveLength(1);
    const [api] = body.linkset;
    expect(api.anchor).toBe(`${SITE}/api/agent/v1`);
    expect(Object.keys(api).sort()).toEqual(['anchor', 'service-desc', 'service-doc', 'service-meta']);
    expect(api['service-desc'][0]).toMatchObject({ href: `${SITE}/openapi/agent-v1.json`, type: 'application/json' });
    expect(api['service-doc'][0]).toMatchObject({ href: `${SITE}/docs/api`, type: 'text/html' });
    expect(api['service-meta'][0]).toMatchObject({
      href: `${SITE}/api/agent/v1/capabilities`,
      type: 'application/json',
    });
  });

  it('every link resolves on the site with 200 and the type the link states', async () => {
    const body: any = await (await service.fetch(CATALOG)).json();
    const targets = body.linkset.flatMap((entry: any) =>
      Object.entries(entry).flatMap(([rel, links]) => (rel === 'anchor' ? [] : (links as any[]))),
    );
    expect(targets).toHaveLength(3);
    for (const target of targets) {
      expect(target.href.startsWith(`${SITE}/`), target.href).toBe(true);
      const response = await service.fetch(target.href.slice(SITE.length));
      expect(response.status, target.href).toBe(200);
      expect(response.headers.get('content-type')!.split(';')[0], target.href).toBe(target.type);
    }
  });

  it('HEAD answers 200 without a body and names the catalogue in a Link header', async () => {
    const head = await service.fetch(CATALOG, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(LINKSET_TYPE);
    expect(head.headers.get('link')).toBe(`<${SITE}${CATALOG}>; rel="api-catalog"; type="application/linkset+json"`);
  });
});

describe('other methods on the published documents', () => {
  it('answer like an unknown site path: the site 404 page', async () => {
    for (const path of [CATALOG, '/openapi/agent-v1.json', '/docs/api']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await service.fetch(path, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get('content-type'), `${method} ${path}`).toBe('text/html; charset=utf-8');
      }
    }
  });
});

describe('GET /docs/api', () => {
  it('is a plain English HTML page under the site CSP that lists every endpoint and schema', async () => {
    const response = await service.fetch('/docs/api');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_HEADERS['content-security-policy']);
    const html = await response.text();
    expect(html).toMatch(/<html lang="en" dir="ltr">/);
    expect(html).not.toMatch(/<script/i);
    const doc: any = buildOpenApiDocument(serviceUrls(SITE), defaultConfig);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const op of Object.values<any>(item).filter((o) => !o.operationId.startsWith('head'))) {
        expect(html).toContain(`id="${op.operationId}"`);
      }
      expect(html).toContain(`<code>${path.replaceAll('&', '&amp;')}</code>`);
    }
    for (const id of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${id}"`);
    expect(html).toContain('SUBMISSION_IN_PROGRESS');
    expect(html).toContain('&quot;No such job.&quot;');
  });

  it('escapes every text it takes from the document', () => {
    const doc: any = buildOpenApiDocument(serviceUrls(SITE), defaultConfig);
    const evil = '<img src=x onerror=alert(1)>"&';
    doc.info.title = evil;
    doc.paths['/jobs'].post.summary = evil;
    doc.paths['/jobs'].post.responses['201'].description = evil;
    doc.components.schemas.Price.properties.currency.description = evil;
    doc.components.schemas.Price.properties[evil] = { type: 'string', enum: [evil] };
    const html = renderReferencePage(doc);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;');
  });
});
