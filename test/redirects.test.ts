import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { HSTS_VALUE } from '../http/canonical-redirect.ts';
import { braceletBody, jsonInit } from './helpers/flows.ts';
import { DEFAULT_ADDRESS, removeDir, startService, type TestService } from './helpers/service.ts';

const SITE_HTTPS = 'https://jewellery.example';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const CAPABILITIES = '/api/agent/v1/capabilities';

const running: TestService[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) {
    await service.close();
    removeDir(service.dir);
  }
});

async function start(options: { siteUrl?: string; trustProxy?: boolean } = {}): Promise<TestService> {
  const service = await startService({ siteUrl: SITE_HTTPS, ...options });
  running.push(service);
  return service;
}

/** A request for an absolute URL, as it reaches the app (the URL's scheme is the connection's). */
const send = (service: TestService, url: string, init: RequestInit = {}) =>
  Promise.resolve(
    service.app.request(url, init, {
      incoming: { socket: { remoteAddress: DEFAULT_ADDRESS, remotePort: 40000, remoteFamily: 'IPv4' } },
    }),
  );

async function expectRedirect(response: Response, location: string): Promise<void> {
  expect(response.status).toBe(308);
  expect(response.headers.get('location')).toBe(location);
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(await response.text()).toBe('');
}

describe('with an https:// SITE_URL', () => {
  it('plain http:// answers 308 to the https URL with the same path and query', async () => {
    const service = await start();
    const response = await send(service, `http://jewellery.example${CAPABILITIES}?a=1&b=%2F2`);
    await expectRedirect(response, `${SITE_HTTPS}${CAPABILITIES}?a=1&b=%2F2`);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('the www. host answers 308 to the apex, path and query kept', async () => {
    const service = await start();
    const response = await send(service, 'https://www.jewellery.example/a/abcDEF234xyz?e=JOB_LOCKED');
    await expectRedirect(response, `${SITE_HTTPS}/a/abcDEF234xyz?e=JOB_LOCKED`);
    expect(response.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
  });

  it('http:// and www. at once take one hop straight to the canonical URL', async () => {
    const service = await start();
    await expectRedirect(
      await send(service, 'http://www.jewellery.example/signin?next=%2F'),
      `${SITE_HTTPS}/signin?next=%2F`,
    );
  });

  it('every method is redirected with 308, so the method and body survive', async () => {
    const service = await start();
    for (const method of METHODS) {
      const response = await send(service, `http://jewellery.example/api/agent/v1/jobs`, { method });
      expect(response.status, method).toBe(308);
      expect(response.headers.get('location'), method).toBe(`${SITE_HTTPS}/api/agent/v1/jobs`);
    }
  });

  it('a POST that follows its 308 with the same body opens the job', async () => {
    const service = await start();
    const first = await send(service, 'http://www.jewellery.example/api/agent/v1/jobs', jsonInit(braceletBody));
    expect(first.status).toBe(308);
    const followed = await send(service, first.headers.get('location')!, jsonInit(braceletBody));
    expect(followed.status).toBe(201);
  });

  it('the Location is always the site URL, never the host the request named', async () => {
    const service = await start();
    await expectRedirect(await send(service, 'http://evil.example/x?y=1'), `${SITE_HTTPS}/x?y=1`);
  });

  it('https answers on the canonical host are served, with Strict-Transport-Security', async () => {
    const service = await start();
    const api = await send(service, `${SITE_HTTPS}${CAPABILITIES}`);
    expect(api.status).toBe(200);
    expect(api.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    const page = await send(service, `${SITE_HTTPS}/no-such-page`);
    expect(page.status).toBe(404);
    expect(page.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
  });

  it('/healthz is never redirected: probes call the service by address over plain http', async () => {
    const service = await start();
    const response = await send(service, 'http://10.0.0.5:8787/healthz');
    expect(response.status).toBe(200);
  });

  describe('without TRUST_PROXY the connection decides', () => {
    it('X-Forwarded-Proto: https on a plain connection is ignored (308)', async () => {
      const service = await start();
      const response = await send(service, `http://jewellery.example${CAPABILITIES}`, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      await expectRedirect(response, `${SITE_HTTPS}${CAPABILITIES}`);
    });

    it('X-Forwarded-Proto: http and X-Forwarded-Host: www. on an https request are ignored (200)', async () => {
      const service = await start();
      const response = await send(service, `${SITE_HTTPS}${CAPABILITIES}`, {
        headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'www.jewellery.example' },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('with TRUST_PROXY the proxy headers decide', () => {
    it('a plain request from the proxy marked X-Forwarded-Proto: https is served', async () => {
      const service = await start({ trustProxy: true });
      const response = await send(service, `http://10.0.0.5:8787${CAPABILITIES}`, {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'jewellery.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    });

    it('X-Forwarded-Proto: http answers 308', async () => {
      const service = await start({ trustProxy: true });
      const response = await send(service, `http://10.0.0.5:8787${CAPABILITIES}?q=1`, {
        headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'jewellery.example' },
      });
      await expectRedirect(response, `${SITE_HTTPS}${CAPABILITIES}?q=1`);
    });

    it('X-Forwarded-Host: www. answers 308 to the apex', async () => {
      const service = await start({ trustProxy: true });
      const response = await send(service, `http://10.0.0.5:8787/`, {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'www.jewellery.example' },
      });
      await expectRedirect(response, `${SITE_HTTPS}/`);
    });

    it('the value our proxy appended last wins over what the caller sent', async () => {
      const service = await start({ trustProxy: true });
      const response = await send(service, `http://10.0.0.5:8787/`, {
        headers: { 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'jewellery.example' },
      });
      await expectRedirect(response, `${SITE_HTTPS}/`);
    });
  });

  it('over a real socket: Host www. and plain http answer 308 unless a trusted proxy says https', async () => {
    const raw = (port: number, path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const trustProxy of [false, true]) {
      const service = await start({ trustProxy });
      const server = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const { port } = server.address() as AddressInfo;
      try {
        const www = await raw(port, '/x?y=1', { host: 'www.jewellery.example' });
        expect(www).toEqual({ status: 308, location: `${SITE_HTTPS}/x?y=1` });
        const proxied = await raw(port, CAPABILITIES, { host: 'jewellery.example', 'x-forwarded-proto': 'https' });
        expect(proxied.status, `TRUST_PROXY=${trustProxy}`).toBe(trustProxy ? 200 : 308);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});

describe('with an http:// SITE_URL (local development)', () => {
  it('nothing redirects and no Strict-Transport-Security is sent', async () => {
    const service = await start({ siteUrl: 'http://localhost:8787' });
    for (const url of [`http://localhost:8787${CAPABILITIES}`, `http://www.localhost:8787${CAPABILITIES}`]) {
      const response = await send(service, url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('strict-transport-security'), url).toBeNull();
    }
  });
});
