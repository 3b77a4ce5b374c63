import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client as DbClient } from '@libsql/client';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { freePort, spawnServer, type ServerProcess } from '../helpers/child-service.ts';
import { braceletArgs, REVISIONS } from '../helpers/mcp.ts';
import { connectHttp, listenOn, modernRequest, rawMcp, type Listening } from '../helpers/mcp-http.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Shutdown with MCP clients connected. A 2025-11-25 session holds its event stream open (the SDK
 * client opens one after the handshake) and a 2026-07-28 tool call in flight holds its exchange
 * open: either would hold its connection, and with it the listener, open to the end of the grace
 * period. Shutdown ends them at once; the uploads they carried still finish.
 */

let dir: string | undefined;
let child: ServerProcess | undefined;
let db: DbClient | undefined;
let service: TestService | undefined;
let listening: Listening | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  if (child && child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
  await child?.exited;
  db?.close();
  await listening?.close();
  await service?.close();
  for (const folder of [dir, service?.dir]) if (folder) removeDir(folder);
  dir = child = db = service = listening = undefined;
});

async function connect(base: string, era: 'legacy' | 'modern') {
  const connected = await connectHttp(base, era);
  clients.push(connected.client);
  return connected;
}

/** The statuses of every submission, read from the database file. */
const statuses = async (database: DbClient) =>
  (await database.execute('SELECT status FROM submissions ORDER BY job_id')).rows.map((row) => row.status);

/** `server.ts` in a process of its own, on a fresh database file. */
async function startServer(): Promise<{ base: string; databaseUrl: string }> {
  dir = mkdtempSync(join(tmpdir(), 'mcp-shutdown-'));
  const port = await freePort();
  const databaseUrl = `file:${join(dir, 'service.db')}`;
  child = await spawnServer({ port, siteUrl: `http://localhost:${port}`, databaseUrl });
  return { base: `http://127.0.0.1:${port}`, databaseUrl };
}

const streamOpen = (server: ServerProcess) =>
  server.output.some((line) => /"method":"GET","path":"\/mcp","status":200/.test(line));

describe('SIGTERM with MCP clients connected (server.ts)', () => {
  it('ends the session and a 2026-07-28 call in flight at once, lets its upload finish, and exits 0', async () => {
    const { base, databaseUrl } = await startServer();
    const legacy = await connect(base, 'legacy');
    await legacy.client.listTools();
    // The session's event stream is open (its GET is logged when the stream starts).
    await waitFor("the session's event stream", () => streamOpen(child!), { child: child!.child });
    const modern = await connect(base, 'modern');
    const lace = designFixture('lace');
    const { lengthMm, widthMm } = lace.job;
    const opened = await modern.client.callTool({
      name: 'open_job',
      arguments: { productType: 'bracelet', lengthMm, widthMm },
    });
    const { jobHandle } = opened.structuredContent as { jobHandle: string };
    const calling = modern.client
      .callTool({ name: 'submit_design', arguments: { jobHandle, pngBase64: (await lace.png()).toString('base64') } })
      .then(
        () => 'answered',
        () => 'cut off',
      );
    db = createClient({ url: databaseUrl });
    await waitFor('the upload processing', async () => (await statuses(db!)).includes('processing'), {
      timeoutMs: 20_000,
      everyMs: 5,
      child: child!.child,
    });

    child!.child.kill('SIGTERM');
    expect(await calling).toBe('cut off');
    expect(await child!.exited).toBe(0);
    const ended = child!.output.filter((line) => line.includes('"msg":"mcp session ended"'));
    expect(ended.map((line) => JSON.parse(line).reason)).toEqual(['closed']);
    // The call lost its answer, not its work.
    expect(await statuses(db)).toEqual(['ready']);
  }, 90_000);

  it('exits 0 before a connection its session stream left idle would time out (5 s)', async () => {
    const { base } = await startServer();
    const legacy = await connect(base, 'legacy');
    await legacy.client.listTools();
    await waitFor("the session's event stream", () => streamOpen(child!), { child: child!.child });

    const signalled = performance.now();
    child!.child.kill('SIGTERM');
    // Past the 30 s bound the process would be cut off with exit 1; a connection left idle after
    // its stream ended would hold the listener for Node's 5 s keep-alive timeout.
    expect(await child!.exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(5_000);
  }, 60_000);
});

describe('Service.closeMcp(), shutdown’s first step', () => {
  it('ends the session and the calls in flight of both revisions; the uploads finish; the old id gets 404', async () => {
    service = await startService();
    listening = await listenOn(service);
    const legacy = await connect(listening.base, 'legacy');
    const modern = await connect(listening.base, 'modern');
    const handleOf = async (client: Client) =>
      ((await client.callTool({ name: 'open_job', arguments: braceletArgs })).structuredContent as any).jobHandle;
    const submit = (jobHandle: string, seed: number) => ({
      name: 'submit_design',
      arguments: { jobHandle, pngBase64: makePng({ width: 300, height: 300, seed }).toString('base64') },
    });
    const sessionHeaders = { 'mcp-session-id': legacy.transport.sessionId!, 'mcp-protocol-version': REVISIONS.legacy };
    const release = service.pipeline.hold();
    // The session's call goes raw, so that its answer stream can be seen to end.
    const legacyCall = rawMcp(
      listening.base,
      'POST',
      sessionHeaders,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: submit(await handleOf(legacy.client), 1),
      }),
    );
    const modernCall = modern.client.callTool(submit(await handleOf(modern.client), 2)).then(
      () => 'answered',
      () => 'cut off',
    );
    await waitFor(
      'both uploads processing',
      async () => (await statuses(service!.db.orm.$client)).join() === 'processing,processing',
    );

    await service.closeMcp();
    const legacyAnswer = await legacyCall;
    expect([legacyAnswer.status, legacyAnswer.text]).toEqual([200, '']);
    expect(await modernCall).toBe('cut off');
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/list' });
    const stale = await rawMcp(listening.base, 'POST', sessionHeaders, listTools);
    expect([stale.status, JSON.parse(stale.text).error.code]).toEqual([404, -32001]);
    const later = modernRequest('tools/list');
    const refused = await rawMcp(listening.base, 'POST', later.headers, later.body);
    expect([refused.status, refused.headers['retry-after']]).toEqual([503, '5']);

    release();
    await waitFor('both uploads ready', async () => (await statuses(service!.db.orm.$client)).join() === 'ready,ready');
  });
});
