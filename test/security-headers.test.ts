import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { PAGE_HEADERS } from '../web/html.ts';
import { bearer, braceletBody, jsonInit, openJob, uploadPng } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest({ config: { limits: { jobsPerHourPerIp: 1 } } });

const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** What the two headers say, for one answer: a browser may neither sniff it into a page nor frame it. */
const guards = (response: Response) => ({
  status: response.status,
  nosniff: response.headers.get('x-content-type-options'),
  csp: response.headers.get('content-security-policy'),
});
const guarded = (status: number) => ({ status, nosniff: 'nosniff', csp: FRAME_ANCESTORS_NONE });

describe('X-Content-Type-Options: nosniff and frame-ancestors on every answer', () => {
  it('JSON answers under the API base carry both: successes, 400, 404, 405, 413, 429 and the 500 of onError', async () => {
    const job = await openJob(service);
    const answers: [string, Response][] = [
      ['capabilities', await service.api('/capabilities')],
      ['job', await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })],
      ['bad body', await service.api('/jobs', jsonInit({ ...braceletBody, colour: 'gold' }, {}), '198.51.100.1')],
      ['unknown endpoint', await service.api('/nothing-here')],
      ['wrong secret', await service.api(`/jobs/${job.id}`, { headers: bearer(`${job.secret}x`) })],
      ['method', await service.api('/capabilities', { method: 'OPTIONS' })],
      ['too large', await uploadPng(service, job, new Uint8Array(6_000_001))],
      ['rate limited', await service.api('/jobs', jsonInit(braceletBody))],
    ];
    service.db.close();
    answers.push(['unexpected', await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })]);
    const statuses = [200, 200, 400, 404, 404, 405, 413, 429, 500];
    expect(answers.map(([what, r]) => [what, guards(r)])).toEqual(
      answers.map(([what], i) => [what, guarded(statuses[i]!)]),
    );
  });

  it('the OpenAPI document, its 304, the API catalogue and the reference page carry both', async () => {
    const doc = await service.fetch('/openapi/agent-v1.json');
    const notModified = await service.fetch('/openapi/agent-v1.json', {
      headers: { 'if-none-match': doc.headers.get('etag')! },
    });
    expect([guards(doc), guards(notModified), guards(await service.fetch('/.well-known/api-catalog'))]).toEqual([
      guarded(200),
      guarded(304),
      guarded(200),
    ]);
    // The reference page is a site page: it keeps the site's stricter policy as it is.
    const page = await service.fetch('/docs/api');
    expect(guards(page)).toEqual({ status: 200, nosniff: 'nosniff', csp: PAGE_HEADERS['content-security-policy'] });
  });

  it('answers with a policy of their own keep it whole and gain only frame-ancestors: the SVG files', async () => {
    const job = await openJob(service);
    expect((await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 1 }))).status).toBe(200);
    for (const file of ['cutouts.svg', 'preview.svg']) {
      const svg = await service.api(`/jobs/${job.id}/submissions/1/${file}`, { headers: bearer(job.secret) });
      expect(guards(svg), file).toEqual({
        status: 200,
        nosniff: 'nosniff',
        csp: `default-src 'none'; style-src 'unsafe-inline'; ${FRAME_ANCESTORS_NONE}`,
      });
    }
    const png = await service.api(`/jobs/${job.id}/submissions/1/findings.png`, { headers: bearer(job.secret) });
    expect(guards(png)).toEqual(guarded(200));
  });

  it('MCP answers carry both over a real socket: an initialize and its stream, and the refusals', async () => {
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const mcp = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      };
      // Outbound HTTP only to the server this test started.
      // eslint-disable-next-line no-restricted-globals
      const send = (init?: RequestInit) => fetch(mcp, init);
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        send({
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      const opened = await post(initialize);
      await opened.text();
      const answers = [
        opened,
        await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        await post(initialize, { 'mcp-session-id': 'no-such-session' }),
        await send(),
      ];
      await Promise.all(answers.map((r) => (r.bodyUsed ? undefined : r.body?.cancel())));
      expect(answers.map(guards)).toEqual([guarded(200), guarded(400), guarded(404), guarded(400)]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
