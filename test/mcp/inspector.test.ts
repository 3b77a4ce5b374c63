import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/service.ts';

/**
 * The MCP inspector's CLI mode (`@modelcontextprotocol/inspector` 0.15.0, the last release that
 * runs on Node 20) against the stdio server, started the way the README tells people to:
 * `mcp-inspector --cli -e KEY=VALUE … node bin/jewellery-mcp.js --method tools/list`.
 */
const require = createRequire(import.meta.url);
const inspectorBin = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  (require('@modelcontextprotocol/inspector/package.json') as { bin: Record<string, string> }).bin['mcp-inspector']!,
);
const launcher = fileURLToPath(new URL('../../bin/jewellery-mcp.js', import.meta.url));
const TIMEOUT_MS = 45_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
});
afterAll(() => removeDir(dir));

function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [inspectorBin, ...args], { timeout: TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('MCP inspector CLI against the stdio server', () => {
  it(
    'lists the four tools with tools/list',
    async () => {
      const { code, stdout, stderr } = await inspect([
        '--cli',
        '-e',
        `DATABASE_URL=file:${join(dir, 'inspector.db')}`,
        '-e',
        'SITE_URL=http://localhost:8787',
        process.execPath,
        launcher,
        '--method',
        'tools/list',
      ]);
      expect(code, stderr).toBe(0);
      const listed = JSON.parse(stdout) as {
        tools: Array<{ name: string; description: string; inputSchema: object; annotations?: object }>;
      };
      expect(listed.tools.map((t) => t.name)).toEqual([
        'get_capabilities',
        'open_job',
        'submit_design',
        'check_approval',
      ]);
      for (const tool of listed.tools) {
        expect(tool.description.length).toBeGreaterThan(50);
        expect(tool.inputSchema).toMatchObject({ type: 'object' });
        expect(tool.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
      }
    },
    TIMEOUT_MS + 5_000,
  );
});
