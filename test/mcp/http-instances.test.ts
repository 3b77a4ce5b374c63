import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { braceletArgs, errorEnvelope, textOf } from '../helpers/mcp.ts';
import { connectHttp, listenOn, modernRequest, rawMcp, type Listening } from '../helpers/mcp-http.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * Two instances of the service on one database file, each on its own loopback listener, as behind
 * a load balancer without sticky routing: a 2026-07-28 client may reach either with any request.
 */
let first: TestService;
let second: TestService;
let listeners: Listening[];
const clients: Client[] = [];

beforeEach(async () => {
  first = await startService();
  second = await startService({ dir: first.dir, clock: first.clock, pipeline: first.pipeline });
  listeners = [await listenOn(first), await listenOn(second)];
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(listeners.map((l) => l.close()));
  await second.close();
  await first.close();
  removeDir(first.dir);
});

async function modernClient(listening: Listening): Promise<Client> {
  const { client } = await connectHttp(listening.base, 'modern');
  clients.push(client);
  return client;
}

describe('2026-07-28 over HTTP, two instances on one database', () => {
  it('answers a request on one instance with a handle minted by the other', async () => {
    const [one, two] = [await modernClient(listeners[0]!), await modernClient(listeners[1]!)];
    const opened = await one.callTool({ name: 'open_job', arguments: braceletArgs });
    const { jobHandle, job } = opened.structuredContent as { jobHandle: string; job: { id: string } };

    const png = makePng({ width: 600, height: 400, seed: 31 });
    const submitted = await two.callTool({
      name: 'submit_design',
      arguments: { jobHandle, pngBase64: png.toString('base64') },
    });
    expect(submitted.isError, textOf(submitted)).toBeFalsy();
    expect(submitted.structuredContent).toMatchObject({ status: 'ready', submissionNo: 1 });

    const checked = await one.callTool({ name: 'check_approval', arguments: { jobHandle } });
    expect(checked.structuredContent).toMatchObject({ status: 'ready', latestSubmission: { no: 1 } });
    expect(JSON.stringify([opened, submitted, checked])).not.toMatch(/ajs_/);

    // A raw request too, with nothing but the handle: no session, no earlier exchange with this instance.
    const { body, headers } = modernRequest('tools/call', { name: 'check_approval', arguments: { jobHandle } });
    const answer = await rawMcp(listeners[1]!.base, 'POST', headers, body);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).result.structuredContent).toMatchObject({ jobId: job.id, status: 'ready' });
  });

  it('refuses a made-up handle on either instance with NOT_FOUND', async () => {
    for (const listening of listeners) {
      const client = await modernClient(listening);
      const result = await client.callTool({ name: 'check_approval', arguments: { jobHandle: 'A'.repeat(32) } });
      expect([result.isError, errorEnvelope(result).code]).toEqual([true, 'NOT_FOUND']);
    }
  });
});
