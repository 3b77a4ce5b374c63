import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn, type Listening } from '../helpers/mcp-http.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * The MCP inspector's CLI (`@modelcontextprotocol/inspector` 2.x, `mcp-inspector --cli`) lists and
 * calls every tool, one process per call as a script would run it: against the stdio server,
 * started the way the README tells people to (`-e KEY=VALUE … node bin/jewellery-mcp.js`), and
 * against `/mcp` over HTTP at both revisions. A job opened by one call is named in the next by the
 * `jobHandle` it returned, which works from any connection.
 */
const require = createRequire(import.meta.url);
const inspectorBin = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  (require('@modelcontextprotocol/inspector/package.json') as { bin: Record<string, string> }).bin['mcp-inspector']!,
);
const launcher = fileURLToPath(new URL('../../bin/jewellery-mcp.js', import.meta.url));
const TIMEOUT_MS = 60_000;
const TOOLS = ['get_capabilities', 'open_job', 'submit_design', 'check_approval'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
});
afterAll(() => removeDir(dir));

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

/** One inspector CLI run (`--format json -q`): its `result`, or the test fails with what it printed. */
async function inspect(target: string[], args: string[]): Promise<any> {
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [inspectorBin, '--cli', '--format', 'json', '-q', ...target, ...args],
      { timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, HOME: dir } },
      (error, out, err) => {
        const exit = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code: exit, stdout: out, stderr: err });
      },
    );
  });
  expect(code, `${args.join(' ')}\n${stderr}\n${stdout.slice(0, 2000)}`).toBe(0);
  return (JSON.parse(stdout) as { result: unknown }).result;
}

const callTool = async (target: string[], name: string, args: Record<string, unknown>): Promise<ToolResult> => {
  const result = (await inspect(target, [
    '--method',
    'tools/call',
    '--tool-name',
    name,
    '--tool-args-json',
    JSON.stringify(args),
  ])) as ToolResult;
  const text = result.content.map((c) => c.text ?? `[${c.type}]`).join('\n');
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  return result;
};

/** tools/list, then every tool called: capabilities, open, a design (as `design`), the approval check. */
async function listAndCallEveryTool(target: string[], design: (jobHandle: string) => Record<string, unknown>) {
  const listed = (await inspect(target, ['--method', 'tools/list'])) as {
    tools: { name: string; description: string; inputSchema: object; annotations?: object }[];
  };
  expect(listed.tools.map((t) => t.name)).toEqual(TOOLS);
  for (const tool of listed.tools) {
    expect(tool.description.length).toBeGreaterThan(50);
    expect(tool.inputSchema).toMatchObject({ type: 'object' });
    expect(tool.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
  }

  const capabilities = await callTool(target, 'get_capabilities', {});
  expect(capabilities.structuredContent).toMatchObject({ capabilities: { products: expect.any(Object) } });
  const opened = await callTool(target, 'open_job', { productType: 'bracelet', wristMm: 160, widthMm: 20 });
  const { jobHandle, job } = opened.structuredContent as { jobHandle: string; job: { id: string } };
  expect(jobHandle).toMatch(/^[A-Za-z0-9_-]{32}$/);
  const submitted = await callTool(target, 'submit_design', design(jobHandle));
  expect(submitted.structuredContent).toMatchObject({ jobId: job.id, submissionNo: 1 });
  expect(['ready', 'failed_validation']).toContain(submitted.structuredContent!.status);
  const checked = await callTool(target, 'check_approval', { jobHandle });
  expect(checked.structuredContent).toMatchObject({ jobId: job.id, latestSubmission: { no: 1 } });
  for (const result of [opened, submitted, checked]) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
  return job.id;
}

const smallPng = () => makePng({ width: 600, height: 400, seed: 41 });

describe('MCP inspector CLI against the stdio server', () => {
  it(
    'lists the four tools and calls each of them, the design by its file path',
    async () => {
      const target = [
        '-e',
        `DATABASE_URL=file:${join(dir, 'inspector.db')}`,
        '-e',
        'SITE_URL=http://localhost:8787',
        process.execPath,
        launcher,
      ];
      const file = join(dir, 'design.png');
      writeFileSync(file, smallPng());
      await listAndCallEveryTool(target, (jobHandle) => ({ jobHandle, path: file }));
    },
    8 * TIMEOUT_MS,
  );
});

describe('MCP inspector CLI against /mcp over HTTP', () => {
  let service: TestService;
  let listening: Listening;
  beforeAll(async () => {
    service = await startService();
    listening = await listenOn(service);
  });
  afterAll(async () => {
    await listening?.close();
    await service?.close();
    if (service) removeDir(service.dir);
  });

  it.each(['legacy', 'modern'])(
    'lists the four tools and calls each of them at the %s revision, the design as base64',
    async (era) => {
      const target = [`${listening.base}/mcp`, '--transport', 'http', '--protocol-era', era];
      const png = smallPng().toString('base64');
      const jobId = await listAndCallEveryTool(target, (jobHandle) => ({ jobHandle, pngBase64: png }));
      // The revision asked for is the one spoken: a 2025-11-25 job was opened in a session.
      const { rows } = await service.db.orm.$client.execute({
        sql: 'SELECT session_key FROM mcp_job_handles WHERE job_id = ?',
        args: [jobId],
      });
      expect(String(rows[0]!.session_key).startsWith('http:')).toBe(era === 'legacy');
    },
    8 * TIMEOUT_MS,
  );
});
