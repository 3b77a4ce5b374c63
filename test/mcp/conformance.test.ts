import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../http/server-options.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned) against `/mcp`
 * on a real loopback server, once per protocol revision the endpoint serves: `--spec-version`
 * makes the suite speak that revision's wire (2025-11-25: `initialize` and sessions; 2026-07-28:
 * no handshake, a `_meta` envelope on every request) and check every message the server sends
 * against that revision's schema. Only the scenarios a real server can pass: the others call
 * fixture tools (`test_simple_text`, …) that a production server must not list.
 */
const SCENARIOS = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'ping',
    'tools-list',
    'resources-list',
    'prompts-list',
    'server-sse-multiple-streams',
    'dns-rebinding-protection',
  ],
  '2026-07-28': [
    'server-stateless',
    'caching',
    'tools-list',
    'resources-list',
    'prompts-list',
    'dns-rebinding-protection',
    'http-header-validation',
    'sep-2164-resource-not-found',
  ],
} as const;

type Revision = keyof typeof SCENARIOS;

interface ExpectedMiss {
  /** The statuses the suite may give the check here. */
  status: readonly Check['status'][];
  /** What its message must say. */
  reason: RegExp;
}

/**
 * The checks this server cannot pass, by revision, scenario and check id; any other check that
 * is not SUCCESS or INFO fails the test. The suite marks a check it could not exercise with
 * "Not testable: …": these need its fixture tools, which a production server does not list.
 */
const EXPECTED_MISSES: Partial<Record<`${Revision} ${string}`, Record<string, ExpectedMiss>>> = {
  '2026-07-28 server-stateless': {
    'sep-2575-server-rejects-undeclared-capability': {
      status: ['FAILURE'],
      reason: /^Not testable: .*'test_missing_capability'/,
    },
    'sep-2575-missing-capability-http-400': {
      status: ['FAILURE'],
      reason: /^Not testable: .*'test_missing_capability'/,
    },
    'sep-2575-http-server-no-independent-requests-on-stream': {
      status: ['FAILURE'],
      reason: /^Not testable: .*'test_streaming_elicitation'/,
    },
    'sep-2575-server-no-log-without-loglevel': { status: ['FAILURE'], reason: /^Not testable: .*'test_logging_tool'/ },
    // The suite changes the lists through its fixture tools `test_trigger_prompt_change` and
    // `test_trigger_tool_change`; here those calls are refused, nothing changes and no
    // notification is due. A server that does not advertise `listChanged` is skipped instead.
    'sep-2575-server-sends-prompts-list-changed-on-subscription': {
      status: ['WARNING', 'SKIPPED'],
      reason: /no notifications\/prompts\/list_changed arrived|did not declare prompts.listChanged/,
    },
    'sep-2575-server-sends-tools-list-changed-on-subscription': {
      status: ['WARNING', 'SKIPPED'],
      reason: /no notifications\/tools\/list_changed arrived|did not declare tools.listChanged/,
    },
  },
};

const SCENARIO_TIMEOUT_MS = 60_000;

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
  const port = await new Promise<number>((resolve) => {
    server = listen({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  const origin = `http://127.0.0.1:${port}`;
  service = await startService({ siteUrl: origin });
  target.app = service.app;
  url = `${origin}/mcp`;
  outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await service?.closeMcp();
  if (server) await new Promise((resolve) => server.close(resolve));
  await service?.close();
  if (service) removeDir(service.dir);
  if (outDir) removeDir(outDir);
});

interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED' | string;
  description: string;
  errorMessage?: string;
  details?: { untestable?: boolean; note?: string };
}

/** `conformance server --url … --scenario … --spec-version …` on the pinned Node; its exit code and checks. */
async function runScenario(revision: Revision, scenario: string) {
  const dir = join(outDir, revision, scenario);
  const args = ['server', '--url', url, '--scenario', scenario, '--spec-version', revision, '--output-dir', dir];
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [conformanceBin, ...args],
      { timeout: SCENARIO_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const exit = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code: exit, output: `${stdout}\n${stderr}` });
      },
    );
  });
  // The suite writes <dir>/server-<scenario>-<timestamp>/checks.json.
  let runs: string[] = [];
  try {
    runs = readdirSync(dir);
  } catch {
    // no run folder: the suite failed before any check; the output says why
  }
  const checks = runs.flatMap((run) => JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8')) as Check[]);
  return { code, output, checks };
}

/** A check on one line: what a reader of a failed run needs. */
const line = (c: Check) => `${c.status} ${c.id} (${c.name}): ${c.errorMessage ?? c.description}`;

/** Whether a check that did not pass is one this server is expected to miss, for the reason listed. */
function expectedMiss(revision: Revision, scenario: string, check: Check): boolean {
  const expected = EXPECTED_MISSES[`${revision} ${scenario}`]?.[check.id];
  const said = check.errorMessage ?? check.details?.note ?? '';
  return expected !== undefined && expected.status.includes(check.status) && expected.reason.test(said);
}

for (const revision of Object.keys(SCENARIOS) as Revision[]) {
  describe(`MCP conformance suite, revision ${revision}, against /mcp`, () => {
    it.each(SCENARIOS[revision])(
      '%s passes',
      async (scenario) => {
        const { code, output, checks } = await runScenario(revision, scenario);
        expect(checks.length, `no checks.json; the suite said:\n${output}`).toBeGreaterThan(0);
        const notPassed = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
        const unexpected = notPassed.filter((c) => !expectedMiss(revision, scenario, c));
        expect(unexpected.map(line), `checks not passed (the suite said:\n${output})`).toEqual([]);
        if (notPassed.length === 0) expect(code, output).toBe(0);
      },
      SCENARIO_TIMEOUT_MS + 5_000,
    );
  });
}
