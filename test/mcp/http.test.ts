import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { ManualClock, MINUTE } from '../../core/clock.ts';
import { silentLogger } from '../../core/logger.ts';
import { registerMcpRoutes } from '../../mcp/http.ts';
import { braceletArgs, errorEnvelope, textOf } from '../helpers/mcp.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let server: ServerType;
let base: string;
const clients: Client[] = [];

beforeEach(async () => {
  service = await startService({ config: { limits: { globalSubmissionsPerMinute: 1000 } } });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await new Promise((resolve) => server.close(resolve));
  await service.close();
  removeDir(service.dir);
});

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
  const client = new Client({ name: 'vitest-http', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw request over node:http, where Host and Origin can be set freely. */
function raw(
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(`${base}/mcp`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          // An SSE answer to initialize ends after its one message; do not wait for the stream.
          if (Buffer.concat(chunks).toString().includes('"result"')) res.destroy();
        });
        const done = () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('streamable HTTP at /mcp', () => {
  it('initializes a session with an id, lists the tools and runs the flow', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('jewellery-design-jobs');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_capabilities', 'open_job', 'submit_design', 'check_approval']);

    const open = await call(client, 'open_job', braceletArgs);
    const jobId = (open.structuredContent as any).job.id;
    const png = makePng({ width: 600, height: 400, seed: 11 });
    const submit = await call(client, 'submit_design', { jobId, pngBase64: png.toString('base64') });
    expect(submit.structuredContent).toMatchObject({ status: 'ready', approval: { status: 'pending' } });
    expect(submit.content.find((c) => c.type === 'image')).toMatchObject({ mimeType: 'image/png' });
    const check = await call(client, 'check_approval', { jobId });
    expect(check.structuredContent).toMatchObject({ status: 'ready', pollIntervalSec: 30 });
    for (const result of [open, submit, check]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
  });

  it('runs the whole flow over HTTP: failing design, its instructions, passing design, decline, declined', async () => {
    const { client } = await connect();
    const open = await call(client, 'open_job', braceletArgs);
    const jobId = (open.structuredContent as any).job.id;

    const bad = makePng({ width: 600, height: 400, seed: 21 });
    service.pipeline.script(bad, 'invalid');
    const failed = await call(client, 'submit_design', { jobId, pngBase64: bad.toString('base64') });
    expect(failed.isError).toBeFalsy();
    expect(failed.structuredContent).toMatchObject({ status: 'failed_validation', approval: null });
    expect((failed.structuredContent as any).errors[0].agent_instruction).toBeTruthy();
    expect(textOf(failed)).toContain('Scripted instruction (test stand-in).');

    const good = makePng({ width: 600, height: 400, seed: 22 });
    const passed = await call(client, 'submit_design', { jobId, pngBase64: good.toString('base64') });
    const url: string = (passed.structuredContent as any).approval.url;
    expect(textOf(passed)).toContain('Hebrew');
    const token = url.split('/a/')[1];
    const declined = await service.api(`/handoff/${token}/decline`, { method: 'POST' });
    expect(declined.status).toBe(200);
    const check = await call(client, 'check_approval', { jobId });
    expect(check.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });
    for (const result of [open, failed, passed, check]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);

    const notBase64 = await call(client, 'submit_design', { jobId, pngBase64: '%%% not base64 %%%' });
    expect([notBase64.isError, errorEnvelope(notBase64).code]).toEqual([true, 'INVALID_REQUEST']);
    const gif = Buffer.from('GIF89a this is not a png at all, really').toString('base64');
    const notPng = await call(client, 'submit_design', { jobId, pngBase64: gif });
    expect([notPng.isError, errorEnvelope(notPng).code]).toEqual([true, 'INVALID_FILE']);
  });

  it('keeps sessions apart: another session did not open the job', async () => {
    const first = await connect();
    const second = await connect();
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
    const jobId = ((await call(first.client, 'open_job', braceletArgs)).structuredContent as any).job.id;
    const result = await call(second.client, 'check_approval', { jobId });
    expect(result.isError).toBe(true);
    expect(errorEnvelope(result).code).toBe('NOT_FOUND');
    expect(textOf(result)).toContain('this MCP session did not open');
  });

  it('sends the session id header on initialize and answers 404 for an unknown session', async () => {
    const init = await raw('POST', {}, initializeBody);
    expect(init.status).toBe(200);
    expect(init.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await raw(
      'POST',
      { 'mcp-session-id': '00000000-0000-4000-8000-000000000000', 'mcp-protocol-version': '2025-11-25' },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(unknown.status).toBe(404);
    const noSession = await raw('POST', {}, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
  });

  it('refuses a foreign Origin and a foreign Host (DNS-rebinding protection)', async () => {
    const badOrigin = await raw('POST', { origin: 'http://evil.example' }, initializeBody);
    expect(badOrigin.status).toBe(403);
    expect(badOrigin.text).toContain('Origin');
    const badHost = await raw('POST', { host: 'evil.example:8787' }, initializeBody);
    expect(badHost.status).toBe(403);
    const siteOrigin = await raw('POST', { origin: SITE }, initializeBody);
    expect(siteOrigin.status).toBe(200);
  });

  it('closes a session on DELETE', async () => {
    const { client, transport } = await connect();
    const jobId = ((await call(client, 'open_job', braceletArgs)).structuredContent as any).job.id;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await raw(
      'POST',
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    );
    expect(after.status).toBe(404);
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT count(*) AS n FROM mcp_job_handles WHERE job_id = ?',
      args: [jobId],
    });
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe('session expiry', () => {
  it('closes a session idle past the configured idle minutes; its next request gets 404', async () => {
    const clock = new ManualClock();
    const idle = await startService({ config: { mcp: { idleMinutes: 10 } } });
    const app = new Hono();
    const sessions = registerMcpRoutes(app, {
      core: idle.core,
      log: silentLogger,
      apiEnabled: true,
      trustProxy: false,
      clock,
    });
    onTestFinished(async () => {
      await sessions.closeAll();
      await idle.close();
      removeDir(idle.dir);
    });
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const init = await app.request(`${SITE}/mcp`, { method: 'POST', headers, body: initializeBody });
    expect(init.status, await init.clone().text()).toBe(200);
    const id = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect(sessions.size).toBe(1);
    const list = (n: number) =>
      app.request(`${SITE}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/list' }),
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
    expect(sessions.size).toBe(0);
  });

  it('is absent when the agent API is switched off', async () => {
    const off = await startService({ apiEnabled: false });
    const response = await off.fetch('/mcp', { method: 'POST', body: initializeBody });
    expect(response.status).toBe(404);
    await off.close();
    removeDir(off.dir);
  });
});
