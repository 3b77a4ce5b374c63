import { START_NODE_FLAGS } from '../helpers/start-flags.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type InArgs, type Row } from '@libsql/client';
import { API_BASE_PATH } from '../../core/urls.ts';
import { keepTail, startSqld, stopChild } from '../helpers/sqld.ts';
import { waitFor } from '../helpers/wait.ts';

/** Where the instances share their data: one embedded file, or one libSQL server (`sqld`) over HTTP. */
export type Backend = 'file' | 'sqld';
export const BACKENDS: Backend[] = ['file', 'sqld'];

/** The public origin of both instances, as behind one load balancer. */
const SITE = 'http://localhost:8787';

export interface Instance {
  name: string;
  /** A real HTTP request to this instance, as if the proxy had seen it come from `address`. */
  request(path: string, init: RequestInit, address: string): Promise<Response>;
  /** The same, under the API base. */
  api(path: string, init: RequestInit, address: string): Promise<Response>;
  /** The instance's log lines at level `error` so far. */
  errors(): string[];
}

export interface Cluster {
  backend: Backend;
  instances: [Instance, Instance];
  /** A read straight from the shared database, for what the HTTP answers do not show. */
  query(sql: string, args?: InArgs): Promise<Row[]>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  config?: object;
  /** How long each scripted pipeline run takes. */
  pipelineDelayMs?: number;
  /** How often each instance sweeps: every second unless given, so that sweeps race the tests. */
  sweepEveryMs?: number;
}

const instanceEntry = fileURLToPath(new URL('./instance.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A fresh database and two service processes on it, started at the same time (so they also race
 * to apply the migrations). Each instance trusts `X-Forwarded-For`, as behind a proxy, so that
 * tests can give every caller its own address and per-address buckets.
 */
export async function startCluster(backend: Backend, options: ClusterOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-scale-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(options.config ?? {}));
  const sqld = backend === 'sqld' ? await startSqld() : undefined;
  const databaseUrl = sqld?.url ?? `file:${join(dir, 'shared.db')}`;
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    CONFIG_FILE: configFile,
    SITE_URL: SITE,
    TRUST_PROXY: 'true',
    PORT: '0',
    SCALE_PIPELINE_DELAY_MS: String(options.pipelineDelayMs ?? 0),
    SCALE_SWEEP_EVERY_MS: String(options.sweepEveryMs ?? 1000),
  };
  const spawned = ['a', 'b'].map((name) => spawnInstance(name, env));
  // Both open the database at the same moment: on a fresh one, both find the migrations pending.
  const loaded = await Promise.allSettled(spawned.map((s) => s.loaded));
  const notLoaded = loaded.find((l) => l.status === 'rejected');
  const started = notLoaded ? [] : await Promise.allSettled(spawned.map((s) => s.start()));
  const reader = createClient({ url: databaseUrl });
  const stop = async () => {
    reader.close();
    await Promise.all(spawned.map((s) => s.stop()));
    await sqld?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const failed = notLoaded ?? started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return {
    backend,
    instances: started.map((s) => (s as PromiseFulfilledResult<Instance>).value) as [Instance, Instance],
    query: async (sql, args) => (await reader.execute({ sql, args: args ?? [] })).rows,
    stop,
  };
}

interface Spawned {
  /** Settles once the process has loaded its modules, and fails if it exits first. */
  loaded: Promise<void>;
  /** Lets it open the database and listen; settles once it listens, and fails if it exits first. */
  start(): Promise<Instance>;
  stop(): Promise<void>;
}

function spawnInstance(name: string, env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [...START_NODE_FLAGS, instanceEntry], {
    cwd: repoRoot,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = keepTail(child);
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ level: 'error', msg: 'not a JSON log line', line });
      }
    }
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const said = (msg: string) => lines.find((l) => l.msg === msg);
  const untilSaid = async (msg: string, timeoutMs: number) => {
    try {
      await waitFor(`instance ${name} to log ${msg}`, () => said(msg) !== undefined, { child, timeoutMs, everyMs: 50 });
    } catch (error) {
      throw new Error(`instance ${name} never said ${msg}: ${String(error)}\n${output()}`, { cause: error });
    }
  };
  const loaded = untilSaid('loaded', 60_000);
  return {
    loaded,
    async start() {
      child.stdin.write('go\n');
      await untilSaid('listening', 30_000);
      return instanceAt(name, Number(said('listening')!.port), lines);
    },
    async stop() {
      process.off('exit', killOnExit);
      child.stdin.end();
      await stopChild(child);
    },
  };
}

function instanceAt(name: string, port: number, lines: Record<string, unknown>[]): Instance {
  const origin = `http://127.0.0.1:${port}`;
  const request = (path: string, init: RequestInit, address: string) =>
    // Outbound HTTP only to the instance this helper started.
    // eslint-disable-next-line no-restricted-globals
    fetch(`${origin}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), 'x-forwarded-for': address },
    });
  return {
    name,
    request,
    api: (path, init, address) => request(`${API_BASE_PATH}${path}`, init, address),
    errors: () => lines.filter((l) => l.level === 'error').map((l) => JSON.stringify(l)),
  };
}
