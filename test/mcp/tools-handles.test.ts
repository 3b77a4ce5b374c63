import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../core/clock.ts';
import {
  braceletArgs,
  connectMcp,
  openedPerTest,
  errorEnvelope,
  resourceLinks,
  textOf,
  type Era,
  type McpTestClient,
} from '../helpers/mcp.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { servicePerTest, startService } from '../helpers/service.ts';

/**
 * Job handles: a bearer name for a job, good from any connection, session, protocol revision and
 * instance on the database until the job expires; the SVG resources read through them; and the
 * cache fields of 2026-07-28 list results.
 */

const config = { limits: roomyRateLimits };

const service = servicePerTest({ config });
/** Clients, and services a test starts beside `service` (closed after its clients). */
const { clients, services: opened } = openedPerTest();

async function connect(era: Era, on = service) {
  const client = await connectMcp(on, { era });
  clients.push(client);
  return client;
}

const b64 = (seed: number) => Buffer.from(makePng({ width: 600, height: 400, seed })).toString('base64');

async function openJob(client: McpTestClient): Promise<{ jobId: string; jobHandle: string }> {
  const result = await client.call('open_job', braceletArgs);
  expect(result.isError, textOf(result)).toBeFalsy();
  const out = result.structuredContent as any;
  return { jobId: out.job.id, jobHandle: out.jobHandle };
}

/** A ready submission's links, from a job opened on `client`. */
async function readySubmission(client: McpTestClient, seed: number) {
  const { jobId, jobHandle } = await openJob(client);
  const passed = await client.call('submit_design', { jobHandle, pngBase64: b64(seed) });
  expect(passed.structuredContent, textOf(passed)).toMatchObject({ status: 'ready' });
  return {
    jobId,
    jobHandle,
    links: resourceLinks(passed),
    approvalUrl: (passed.structuredContent as any).approval.url,
  };
}

async function readError(client: McpTestClient, uri: string): Promise<ProtocolError> {
  const error = await client.client.readResource({ uri }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, uri).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe('a job handle', () => {
  it.each([
    ['legacy', 'modern'],
    ['modern', 'legacy'],
  ] as const)('opened by a %s client works for a %s client on another connection', async (from, to) => {
    const opener = await connect(from);
    const { jobId, jobHandle } = await openJob(opener);
    const other = await connect(to);
    const submitted = await other.call('submit_design', { jobHandle, pngBase64: b64(1) });
    expect(submitted.structuredContent, textOf(submitted)).toMatchObject({ jobId, status: 'ready' });
    const checked = await opener.call('check_approval', { jobHandle });
    expect(checked.structuredContent).toMatchObject({ jobId, status: 'ready', latestSubmission: { no: 1 } });
  });

  it('outlives the session that opened it, and works on another instance on the same database', async () => {
    const opener = await connect('legacy');
    const { jobId, jobHandle } = await openJob(opener);
    await opener.close();
    const other = await startService({ dir: service.dir, config });
    opened.push({ ...other, dir: `${service.dir}-unused` });
    for (const era of ['legacy', 'modern'] as const) {
      const result = await (await connect(era, other)).call('check_approval', { jobHandle });
      expect(result.structuredContent, textOf(result)).toMatchObject({ jobId, status: 'open' });
    }
  });

  it('stops working when its job expires, and the refusal says to open a new job', async () => {
    const mcp = await connect('modern');
    const { jobHandle, links } = await readySubmission(mcp, 2);
    service.clock.advance(7 * DAY);
    for (const [name, args] of [
      ['check_approval', { jobHandle }],
      ['submit_design', { jobHandle, pngBase64: b64(3) }],
    ] as const) {
      const result = await mcp.call(name, args);
      expect(result.isError, name).toBe(true);
      expect(errorEnvelope(result).code).toBe('JOB_EXPIRED');
      expect(errorEnvelope(result).agent_instruction).toContain('Call open_job to open a new job');
    }
    expect((await readError(mcp, links[0]!.uri)).code).toBe(-32602);
  });

  it('of a declined job lives as long as the declined job: the configured hours after the decline', async () => {
    const mcp = await connect('legacy');
    const { jobHandle, approvalUrl } = await readySubmission(mcp, 4);
    const token = approvalUrl.split('/a/')[1];
    expect((await service.api(`/handoff/${token}/decline`, { method: 'POST' })).status).toBe(200);
    service.clock.advance(23 * HOUR);
    expect((await mcp.call('check_approval', { jobHandle })).structuredContent).toMatchObject({ status: 'declined' });
    service.clock.advance(2 * HOUR);
    expect(errorEnvelope(await mcp.call('check_approval', { jobHandle })).code).toBe('JOB_EXPIRED');
  });
});

describe.each(['legacy', 'modern'] as const)('the submission SVG resources, for a %s client', (era) => {
  it('read through the handle from any connection; anything else is resource-not-found (-32602 with the uri)', async () => {
    const { jobHandle, links } = await readySubmission(await connect('legacy'), 5);
    const reader = await connect(era);
    const cut = await reader.client.readResource({ uri: links[0]!.uri });
    expect((cut.contents[0] as any).text).toContain('<g id="cutouts">');

    const failedPng = makePng({ width: 600, height: 400, seed: 6 });
    service.pipeline.script(failedPng, 'invalid');
    await reader.call('submit_design', { jobHandle, pngBase64: Buffer.from(failedPng).toString('base64') });
    for (const uri of [
      `jewellery://jobs/${'B'.repeat(32)}/submissions/1/preview.svg`,
      `jewellery://jobs/${jobHandle}/submissions/9/preview.svg`,
      `jewellery://jobs/${jobHandle}/submissions/2/preview.svg`,
      `jewellery://jobs/${jobHandle}/submissions/1/findings.png`,
      `jewellery://jobs/${jobHandle}/submissions/1/constructor`,
      'jewellery://nothing-here',
    ]) {
      const error = await readError(reader, uri);
      expect(error.code, uri).toBe(-32602);
      expect(error.data, uri).toEqual({ uri });
    }
  });
});

describe('list results and caching', () => {
  const cacheable = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];

  /** The raw results the client received for these methods, in order. */
  async function rawResults(mcp: McpTestClient, uri: string) {
    mcp.received.splice(0);
    await mcp.client.listTools();
    await mcp.client.listPrompts();
    await mcp.client.listResources();
    await mcp.client.listResourceTemplates();
    await mcp.client.readResource({ uri: 'jewellery://drawing-rules' });
    await mcp.client.readResource({ uri });
    return mcp.received.map((m) => ('result' in m ? (m.result as Record<string, unknown>) : undefined));
  }

  it('tell a 2026-07-28 client that the lists are the same for every caller, and a job’s files for it alone', async () => {
    const mcp = await connect('modern');
    const { links } = await readySubmission(mcp, 7);
    const results = await rawResults(mcp, links[0]!.uri);
    expect(results).toHaveLength(cacheable.length + 2);
    for (const [i, method] of cacheable.entries()) {
      expect(results[i], method).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    }
    expect(results[4], 'drawing rules').toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    expect(results[5], 'a submission SVG').toMatchObject({ ttlMs: HOUR, cacheScope: 'private' });
  });

  it('carry no cache fields for a 2025-11-25 client', async () => {
    const mcp = await connect('legacy');
    const { links } = await readySubmission(mcp, 8);
    for (const result of await rawResults(mcp, links[0]!.uri)) {
      expect(result).toBeDefined();
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
    }
  });
});
