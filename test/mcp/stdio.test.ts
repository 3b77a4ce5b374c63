import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braceletArgs, errorEnvelope, textOf } from '../helpers/mcp.ts';
import { removeDir } from '../helpers/service.ts';

const launcher = fileURLToPath(new URL('../../bin/jewellery-mcp.js', import.meta.url));
let dir: string;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  // The real process, started the way a host starts it: node bin/jewellery-mcp.js.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [launcher],
    env: { ...env, DATABASE_URL: `file:${join(dir, 'stdio.db')}`, SITE_URL: 'http://localhost:8787' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'vitest-stdio', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);
afterAll(async () => {
  await client?.close();
  removeDir(dir);
});

const call = async (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

describe('stdio server process', () => {
  it('lists the tools, with a local path for submit_design', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_capabilities', 'open_job', 'submit_design', 'check_approval']);
    const submit = tools.find((t) => t.name === 'submit_design')!;
    expect(Object.keys(submit.inputSchema.properties!)).toEqual(['jobId', 'pngBase64', 'path']);
  });

  it('opens a job, refuses a non-PNG file with INVALID_FILE, and reads the job back', async () => {
    const open = await call('open_job', braceletArgs);
    expect(open.isError, textOf(open)).toBeFalsy();
    const jobId = (open.structuredContent as any).job.id;
    const file = join(dir, 'not-a.png');
    writeFileSync(file, 'this is plain text, not a PNG file at all');
    const refused = await call('submit_design', { jobId, path: file });
    expect(refused.isError).toBe(true);
    expect(errorEnvelope(refused).code).toBe('INVALID_FILE');
    const check = await call('check_approval', { jobId });
    expect(check.structuredContent).toMatchObject({ jobId, status: 'open', approval: null });
    for (const result of [open, refused, check]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
  });
});
