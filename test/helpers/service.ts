import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/clock.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import type { ProcessIdentity } from '../../core/maintenance/upload-leases.ts';
import type { Pipeline } from '../../core/pipeline/types.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import { API_BASE_PATH } from '../../core/urls.ts';
import type { RunSettings } from '../../env.ts';
import { buildService, type Service } from '../../service.ts';
import { MCP_PATH } from '../../mcp/http.ts';
import { checkMcpAnswer } from './mcp-wire.ts';
import { checkAnswer } from './openapi-contract.ts';
import { ScriptedPipeline } from './scripted-pipeline.ts';

export const SITE = 'http://localhost:8787';
export const DEFAULT_ADDRESS = '203.0.113.10';

export interface TestServiceOptions {
  /** Run the real image pipeline (worker threads) instead of the scripted stand-in. */
  realPipeline?: boolean;
  /** Run this pipeline instead (for example a worker pool with a worker that hangs). */
  pipelineFn?: Pipeline;
  config?: object;
  apiEnabled?: boolean;
  trustProxy?: boolean;
  /** Reuse a database folder (for restart tests); a fresh temp folder otherwise. */
  dir?: string;
  clock?: ManualClock;
  pipeline?: ScriptedPipeline;
  /** The service's public origin (`SITE` unless given), e.g. a real loopback port for browser tests. */
  siteUrl?: string;
  /** Where the service logs (silent unless given), e.g. a `jsonLogger` that records its lines. */
  log?: Logger;
  /** The process its uploads claim to run in (this one unless given): to stand for another instance. */
  identity?: ProcessIdentity;
}

export interface TestService extends Service {
  clock: ManualClock;
  pipeline: ScriptedPipeline;
  dir: string;
  dbPath: string;
  /** A request to the in-process app, as if from `address`. */
  fetch(path: string, init?: RequestInit, address?: string): Promise<Response>;
  /** The same, under the API base. */
  api(path: string, init?: RequestInit, address?: string): Promise<Response>;
  close(): Promise<void>;
}

/** The real app on a fresh libSQL file, with a movable clock and a scripted pipeline. */
export async function startService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'jobs-test-'));
  const dbPath = join(dir, 'test.db');
  let configFile: string | undefined;
  if (options.config) {
    configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(options.config));
  }
  const settings: RunSettings = {
    port: 8787,
    siteUrl: options.siteUrl ?? SITE,
    databaseUrl: `file:${dbPath}`,
    databaseAuthToken: undefined,
    configFile,
    apiEnabled: options.apiEnabled ?? true,
    trustProxy: options.trustProxy ?? false,
  };
  const clock = options.clock ?? new ManualClock();
  const pipeline = options.pipeline ?? new ScriptedPipeline();
  const service = await buildService(settings, {
    clock,
    random: cryptoRandomness,
    log: options.log ?? silentLogger,
    ...(options.identity && { identity: options.identity }),
    ...(options.realPipeline ? {} : { pipeline: options.pipelineFn ?? pipeline.run }),
  });
  const site = options.siteUrl ?? SITE;
  // Every answer is held to the published OpenAPI document (test/helpers/openapi-contract.ts), and
  // every MCP message to the protocol's schema (test/helpers/mcp-wire.ts).
  const fetch = async (path: string, init: RequestInit = {}, address = DEFAULT_ADDRESS) => {
    const response = await service.app.request(`${site}${path}`, init, {
      incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: 'IPv4' } },
    });
    if (!settings.apiEnabled) return response;
    if (path === MCP_PATH) return checkMcpAnswer(init.body, response);
    return checkAnswer(site, `${site}${path}`, init, response);
  };
  return {
    ...service,
    clock,
    pipeline,
    dir,
    dbPath,
    fetch,
    api: (path, init, address) => fetch(`${API_BASE_PATH}${path}`, init, address),
    close: () => service.close(),
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh service for every test of the file, closed and removed after it. The returned object
 * stands for the current test's service, so a file writes `const service = servicePerTest()`
 * once instead of its own beforeEach/afterEach pair.
 */
export function servicePerTest(options: TestServiceOptions = {}): TestService {
  return sharedService(options, beforeEach, afterEach);
}

/**
 * One service for all the tests of the file (or of the `describe` it is called in), started before
 * the first and closed and removed after the last: for files whose tests each open their own jobs,
 * such as those that run the real pipeline.
 */
export function servicePerFile(options: TestServiceOptions = {}): TestService {
  return sharedService(options, beforeAll, afterAll);
}

function sharedService(
  options: TestServiceOptions,
  before: (hook: () => Promise<void>) => void,
  after: (hook: () => Promise<void>) => void,
): TestService {
  let current: TestService | undefined;
  before(async () => {
    current = await startService(options);
  });
  after(async () => {
    if (!current) return;
    await current.close();
    removeDir(current.dir);
    current = undefined;
  });
  return new Proxy({} as TestService, {
    get(_, key) {
      if (!current) throw new Error('the service exists only inside a test');
      return Reflect.get(current, key);
    },
  });
}
