import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned at 0.1.10: later
 * versions need Node 22) against `/mcp` on a real loopback server. Only its generic server
 * scenarios: the others call test tools (`test_simple_text`, …) a real server does not have.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams'] as const;
const SCENARIO_TIMEOUT_MS = 30_000;

const require = createRequire(import.meta.url);
const conformanceBin = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  (require('@modelcontextprotocol/conformance/package.json') as { bin: { conformance: string } }).bin.conformance,
);

let service: TestService;
let server: ServerType;
let url: string;
let outDir: string;

beforeAll(async () => {
  // Listen first to learn the port, so the service's SITE_URL (the Host/Origin checks) matches it.
  const target: { app?: TestService['app'] } = {};
  const fetch: TestService['app']['fetch'] = (request, ...rest) =>
    target.app ? target.app.fetch(request, ...rest) : new Response('starting', { status: 503 });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service = await startService({ siteUrl: origin });
  target.app = service.app;
  url = `${origin}/mcp`;
  outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await service?.close();
  if (service) removeDir(service.dir);
  if (outDir) removeDir(outDir);
});

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  description: string;
  errorMessage?: string;
}

/** `conformance server --url … --scenario …` with node from node_modules; its exit code and checks.json. */
async function runScenario(scenario: string): Promise<{ code: number; output: string; checks: Check[] }> {
  const dir = join(outDir, scenario);
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [conformanceBin, 'server', '--url', url, '--scenario', scenario, '--output-dir', dir],
      { timeout: SCENARIO_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const exit = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code: exit, output: `${stdout}\n${stderr}` });
      },
    );
  });
  // The suite writes <dir>/server-<scenario>-<timestamp>/checks.json.
  const runs = (() => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  })();
  const checks = runs.flatMap((run) => JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8')) as Check[]);
  return { code, output, checks };
}

describe('MCP conformance suite 0.1.10, generic server scenarios, against /mcp', () => {
  it.each(SCENARIOS)(
    '%s passes',
    async (scenario) => {
      const { code, output, checks } = await runScenario(scenario);
      const notPassed = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
      expect(notPassed, output).toEqual([]);
      expect(checks.length, output).toBeGreaterThan(0);
      expect(code, output).toBe(0);
    },
    SCENARIO_TIMEOUT_MS + 5_000,
  );
});
