import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { ManualClock, MINUTE } from '../../core/clock.ts';
import { silentLogger } from '../../core/logger.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import { createMcpEndpoint } from '../../mcp/http.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { braceletArgs, errorEnvelope, REVISIONS, textOf, type Era } from '../helpers/mcp.ts';
import { connectHttp, listenOn, modernRequest, rawMcp, type Listening } from '../helpers/mcp-http.ts';
import { checkedMessages, wireChecksSettled } from '../helpers/mcp-wire.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from '../helpers/service.ts';

/** Streamable HTTP at `/mcp` on a loopback server: both revisions, sessions, the gate in front. */

let service: TestService;
let listening: Listening;
const clients: Client[] = [];

beforeEach(async () => {
  service = await startService({ config: { limits: roomyRateLimits } });
  listening = await listenOn(service);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await listening.close();
  await service.close();
  removeDir(service.dir);
});

async function connect(era: Era) {
  const connected = await connectHttp(listening.base, era);
  clients.push(connected.client);
  return connected;
}

const raw = (method: string, headers: Record<string, string>, body?: string) =>
  rawMcp(listening.base, method, headers, body);

const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: REVISIONS.legacy, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const legacyListTools = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
const discover = modernRequest('server/discover');

describe.each(['legacy', 'modern'] as const)('a %s client over streamable HTTP', (era) => {
  it(`connects at ${REVISIONS[era]}, lists the four tools and reads them, every message on the wire valid`, async () => {
    const before = checkedMessages.get(REVISIONS[era]) ?? 0;
    const { client, transport } = await connect(era);
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getServerVersion()?.name).toBe('jewellery-design-jobs');
    // A 2025-11-25 session has an id; a 2026-07-28 client has no session at all.
    if (era === 'legacy') expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    else expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_capabilities', 'open_job', 'submit_design', 'check_approval']);
    const capabilities = await client.callTool({ name: 'get_capabilities', arguments: {} });
    expect(capabilities.isError).toBeFalsy();
    expect(capabilities.structuredContent).toMatchObject({ capabilities: { limits: expect.any(Object) } });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['jewellery://drawing-rules']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['design_jewellery']);
    // The wire check saw this client's answers (it fails the test on any bad one).
    await wireChecksSettled();
    expect(checkedMessages.get(REVISIONS[era]) ?? 0).toBeGreaterThanOrEqual(before + 5);
  });

  it('refuses a foreign Origin and a foreign Host (DNS-rebinding protection), takes the site origin', async () => {
    const body = era === 'legacy' ? initializeBody : discover.body;
    const headers = era === 'legacy' ? {} : discover.headers;
    const badOrigin = await raw('POST', { ...headers, origin: 'http://evil.example' }, body);
    expect([badOrigin.status, JSON.parse(badOrigin.text).error.message]).toEqual([
      403,
      'Forbidden: Origin header not allowed.',
    ]);
    const badHost = await raw('POST', { ...headers, host: 'evil.example:8787' }, body);
    expect(badHost.status).toBe(403);
    const siteOrigin = await raw('POST', { ...headers, origin: SITE }, body);
    expect(siteOrigin.status).toBe(200);
  });

  it('is absent when the agent API is switched off', async () => {
    const off = await startService({ apiEnabled: false });
    onTestFinished(async () => {
      await off.close();
      removeDir(off.dir);
    });
    const request = era === 'legacy' ? { body: initializeBody, headers: {} } : discover;
    const response = await off.fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
    });
    expect(response.status).toBe(404);
  });
});

describe('2025-11-25 at /mcp: sessions', () => {
  it('runs the flow in a session: failing design, its instructions, passing design, decline, declined', async () => {
    const { client } = await connect('legacy');
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    const open = await call('open_job', braceletArgs);
    const jobId = (open.structuredContent as any).job.id;

    const bad = makePng({ width: 600, height: 400, seed: 21 });
    service.pipeline.script(bad, 'invalid');
    const failed = await call('submit_design', { jobId, pngBase64: bad.toString('base64') });
    expect(failed.structuredContent).toMatchObject({ status: 'failed_validation', approval: null });
    expect(textOf(failed)).toContain('Scripted instruction (test stand-in).');

    const good = makePng({ width: 600, height: 400, seed: 22 });
    const passed = await call('submit_design', { jobId, pngBase64: good.toString('base64') });
    const url: string = (passed.structuredContent as any).approval.url;
    expect(passed.content.find((c) => c.type === 'image')).toMatchObject({ mimeType: 'image/png' });
    const declined = await service.api(`/handoff/${url.split('/a/')[1]}/decline`, { method: 'POST' });
    expect(declined.status).toBe(200);
    const check = await call('check_approval', { jobId });
    expect(check.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });
    for (const result of [open, failed, passed, check]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
  });

  it('keeps sessions apart: another session did not open the job', async () => {
    const first = await connect('legacy');
    const second = await connect('legacy');
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
    const opened = await first.client.callTool({ name: 'open_job', arguments: braceletArgs });
    const jobId = (opened.structuredContent as any).job.id;
    const result = await second.client.callTool({ name: 'check_approval', arguments: { jobId } });
    expect([result.isError, errorEnvelope(result).code]).toEqual([true, 'NOT_FOUND']);
  });

  it('sends the session id header on initialize and answers 404 for an unknown session, 400 without one', async () => {
    const init = await raw('POST', {}, initializeBody);
    expect(init.status).toBe(200);
    expect(init.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await raw(
      'POST',
      { 'mcp-session-id': '00000000-0000-4000-8000-000000000000', 'mcp-protocol-version': REVISIONS.legacy },
      legacyListTools(2),
    );
    expect(unknown.status).toBe(404);
    const noSession = await raw('POST', {}, legacyListTools(2));
    expect(noSession.status).toBe(400);
  });

  it('closes a session on DELETE; the jobs it opened keep their handles until they expire', async () => {
    const { client, transport } = await connect('legacy');
    const opened = await client.callTool({ name: 'open_job', arguments: braceletArgs });
    const jobId = (opened.structuredContent as any).job.id;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await raw(
      'POST',
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISIONS.legacy },
      legacyListTools(3),
    );
    expect(after.status).toBe(404);
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT count(*) AS n FROM mcp_job_handles WHERE job_id = ?',
      args: [jobId],
    });
    expect(Number(rows[0]!.n)).toBe(1);
  });
});

describe('2026-07-28 at /mcp: stateless requests', () => {
  it('answers a request on its own, as JSON, with no session', async () => {
    const { body, headers } = modernRequest('tools/list');
    const answer = await raw('POST', headers, body);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    const { result } = JSON.parse(answer.text);
    expect(result.tools).toHaveLength(4);
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: expect.any(String) });
  });

  it('refuses an Mcp-Method or Mcp-Name header that does not match the body (400, -32020)', async () => {
    const list = modernRequest('tools/list', {}, 7);
    const wrongMethod = await raw('POST', { ...list.headers, 'mcp-method': 'prompts/list' }, list.body);
    expect(wrongMethod.status).toBe(400);
    expect(JSON.parse(wrongMethod.text)).toMatchObject({ id: 7, error: { code: -32020 } });
    const call = modernRequest('tools/call', { name: 'get_capabilities', arguments: {} }, 8);
    const wrongName = await raw('POST', { ...call.headers, 'mcp-name': 'open_job' }, call.body);
    expect(wrongName.status).toBe(400);
    expect(JSON.parse(wrongName.text)).toMatchObject({ id: 8, error: { code: -32020 } });
    const { 'mcp-name': _, ...noName } = call.headers;
    expect((await raw('POST', noName, call.body)).status).toBe(400);
  });

  it('refuses a body over the cap (413) and one that is not JSON (415, 400) before any server runs', async () => {
    const cap = Math.ceil((service.core.config.image.maxBytes * 4) / 3) + 64 * 1024;
    const call = modernRequest('tools/call', { name: 'submit_design', arguments: { pngBase64: 'A'.repeat(cap) } });
    const tooLarge = await raw('POST', call.headers, call.body);
    expect([tooLarge.status, JSON.parse(tooLarge.text).error.code]).toEqual([413, -32000]);
    const list = modernRequest('tools/list');
    const notJsonType = await raw('POST', { ...list.headers, 'content-type': 'text/plain' }, list.body);
    expect(notJsonType.status).toBe(415);
    const notJson = await raw('POST', list.headers, '{"jsonrpc": "2.0", ');
    expect([notJson.status, JSON.parse(notJson.text).error.code]).toEqual([400, -32700]);
  });

  it('counts each request against the rate limits of its own address (X-Forwarded-For behind a trusted proxy)', async () => {
    const proxied = await startService({ trustProxy: true, config: { limits: { jobsPerHourPerIp: 1 } } });
    onTestFinished(async () => {
      await proxied.close();
      removeDir(proxied.dir);
    });
    const openFrom = async (address: string) => {
      const { body, headers } = modernRequest('tools/call', { name: 'open_job', arguments: braceletArgs });
      const answer = await proxied.fetch('/mcp', {
        method: 'POST',
        headers: {
          ...headers,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'x-forwarded-for': address,
        },
        body,
      });
      return (await answer.json()).result as { isError?: boolean; content: { type: string; text: string }[] };
    };
    expect((await openFrom('198.51.100.7')).isError).toBeFalsy();
    const refused = await openFrom('198.51.100.7');
    expect([refused.isError, errorEnvelope(refused as never).code]).toEqual([true, 'RATE_LIMITED']);
    expect((await openFrom('198.51.100.8')).isError).toBeFalsy();
  });

  it('answers the removed initialize handshake in the 2026-07-28 form with 404, method not found', async () => {
    const { body, headers } = modernRequest('initialize', {}, 9);
    const answer = await raw('POST', headers, body);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ id: 9, error: { code: -32601 } });
  });
});

describe('session expiry', () => {
  it('closes a session idle past the configured idle minutes; its next request gets 404', async () => {
    const clock = new ManualClock();
    const idle = await startService({ config: { mcp: { idleMinutes: 10 } } });
    const endpoint = createMcpEndpoint({
      core: idle.core,
      log: silentLogger,
      trustProxy: false,
      clock,
      random: cryptoRandomness,
    });
    onTestFinished(async () => {
      await endpoint.close();
      await idle.close();
      removeDir(idle.dir);
    });
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const post = (init: RequestInit) =>
      endpoint.handle(new Request(`${SITE}/mcp`, { method: 'POST', ...init }), '203.0.113.10');
    const init = await post({ headers, body: initializeBody });
    expect(init.status, await init.clone().text()).toBe(200);
    const id = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect(endpoint.size).toBe(1);
    const list = (n: number) =>
      post({
        headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': REVISIONS.legacy },
        body: legacyListTools(n),
      });

    clock.advance(9 * MINUTE);
    const alive = await list(2);
    expect(alive.status).toBe(200);
    await alive.body?.cancel();
    clock.advance(9 * MINUTE);
    const stillAlive = await list(3);
    expect(stillAlive.status).toBe(200);
    await stillAlive.body?.cancel();

    clock.advance(11 * MINUTE);
    expect((await list(4)).status).toBe(404);
    expect(endpoint.size).toBe(0);
  });
});

describe('shutdown', () => {
  it("ends the sessions' open streams, so the listener can close; a 2026-07-28 request after it gets 503", async () => {
    const { client } = await connect('legacy');
    await client.listTools();
    await service.closeMcp();
    const { body, headers } = modernRequest('tools/list');
    const after = await raw('POST', headers, body);
    expect([after.status, after.headers['retry-after']]).toEqual([503, '5']);
    // The listener closes at once: no stream is left holding a connection open.
    await listening.close();
  });
});
