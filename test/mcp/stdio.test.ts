import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braceletArgs, connectStdio, errorEnvelope, REVISIONS, textOf, unionsIn, type Era } from '../helpers/mcp.ts';
import { removeDir } from '../helpers/service.ts';

/**
 * The real stdio server process (`node bin/jewellery-mcp.js`), one per client, with a client of
 * each protocol revision: a 2025-11-25 client gets the initialize handshake and a session of the
 * process, a 2026-07-28 client none. Both processes open one database file.
 */
let dir: string;
const clients = {} as Record<Era, Awaited<ReturnType<typeof connectStdio>>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
  const env = { DATABASE_URL: `file:${join(dir, 'stdio.db')}`, SITE_URL: 'http://localhost:8787' };
  // One after the other: the first process creates the database.
  clients.legacy = await connectStdio('legacy', env);
  clients.modern = await connectStdio('modern', env);
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c.client.close()));
  removeDir(dir);
});

describe.each(['legacy', 'modern'] as const)('stdio server process, a %s client', (era) => {
  it('speaks the revision the client opened with', () => {
    expect(clients[era].client.getNegotiatedProtocolVersion()).toBe(REVISIONS[era]);
  });

  it('lists the tools flat, with a local path for submit_design, and job ids only in a session', async () => {
    const { tools } = await clients[era].client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_capabilities', 'open_job', 'submit_design', 'check_approval']);
    for (const tool of tools) expect(unionsIn(tool.inputSchema), tool.name).toEqual([]);
    const submit = tools.find((t) => t.name === 'submit_design')!;
    const jobFields = era === 'legacy' ? ['jobHandle', 'jobId'] : ['jobHandle'];
    expect(Object.keys(submit.inputSchema.properties!)).toEqual([...jobFields, 'pngBase64', 'svg', 'path']);
  });

  it('opens a job, refuses a non-PNG file with INVALID_FILE, and reads the job back', async () => {
    const { call } = clients[era];
    const open = await call('open_job', braceletArgs);
    expect(open.isError, textOf(open)).toBeFalsy();
    const { job, jobHandle } = open.structuredContent as any;
    const file = join(dir, `not-a-${era}.png`);
    writeFileSync(file, 'this is plain text, not a PNG file at all');
    const refused = await call('submit_design', { jobHandle, path: file });
    expect(refused.isError).toBe(true);
    expect(errorEnvelope(refused).code).toBe('INVALID_FILE');
    const check = await call('check_approval', { jobHandle });
    expect(check.structuredContent).toMatchObject({ jobId: job.id, status: 'open', approval: null });
    for (const result of [open, refused, check]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
  });
});

describe('between the two processes', () => {
  it('a handle works in the other process and revision; a job id only in the session that opened it', async () => {
    const opened = (await clients.legacy.call('open_job', braceletArgs)).structuredContent as any;
    const inModern = await clients.modern.call('check_approval', { jobHandle: opened.jobHandle });
    expect(inModern.structuredContent, textOf(inModern)).toMatchObject({ jobId: opened.job.id, status: 'open' });
    const byId = await clients.legacy.call('check_approval', { jobId: opened.job.id });
    expect(byId.structuredContent, textOf(byId)).toMatchObject({ jobHandle: opened.jobHandle });

    const modernJob = (await clients.modern.call('open_job', braceletArgs)).structuredContent as any;
    expect(errorEnvelope(await clients.legacy.call('check_approval', { jobId: modernJob.job.id })).code).toBe(
      'NOT_FOUND',
    );
    const inLegacy = await clients.legacy.call('check_approval', { jobHandle: modernJob.jobHandle });
    expect(inLegacy.structuredContent).toMatchObject({ jobId: modernJob.job.id });

    // The legacy process keeps its jobs under its own session; the modern one under none.
    const db = createClient({ url: `file:${join(dir, 'stdio.db')}` });
    const { rows } = await db.execute({
      sql: 'SELECT job_id, session_key FROM mcp_job_handles WHERE job_id IN (?, ?)',
      args: [opened.job.id, modernJob.job.id],
    });
    db.close();
    const keys = Object.fromEntries(rows.map((r) => [String(r.job_id), String(r.session_key)]));
    expect(keys[opened.job.id]).toMatch(/^stdio:[0-9a-f-]{36}$/);
    expect(keys[modernJob.job.id]).toBe('none');
  });
});
