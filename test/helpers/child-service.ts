import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_BASE_PATH } from '../../core/urls.ts';
import { START_NODE_FLAGS } from './start-flags.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The real service (`server.ts`: system clock, worker pool, sweeper) in a process of its own. */
export interface ChildService {
  process: ChildProcess;
  /** A real HTTP request to `path` under the API base. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Every line it logged so far (JSON lines on stdout, anything on stderr). */
  output: string[];
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals>;
}

export { freePort } from './sqld.ts';

/** A running `server.ts` process, once it listens. */
export interface ServerProcess {
  child: ChildProcess;
  /** Every line it printed so far (JSON log lines on stdout, anything on stderr). */
  output: string[];
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals>;
}

/**
 * Starts `server.ts` as `npm start` starts it (node, the same allocator settings) with the
 * run interface's env vars, and resolves once it logs that it listens.
 */
export async function spawnServer(options: {
  port: number;
  siteUrl: string;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...START_NODE_FLAGS, 'server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // As package.json's start script sets them: fewer malloc arenas for the worker threads.
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '1048576',
      PORT: String(options.port),
      SITE_URL: options.siteUrl,
      DATABASE_URL: options.databaseUrl,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal!)),
  );
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        output.push(line);
        if (line.includes('"msg":"listening"')) resolve();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then((how) => reject(new Error(`the service exited (${how}) before listening:\n${output.join('\n')}`)));
  });
  return { child, output, exited };
}

/** Starts `server.ts` (see `spawnServer`) on localhost and the given port. */
export async function startChildService(options: {
  databaseUrl: string;
  port: number;
  env?: Record<string, string>;
}): Promise<ChildService> {
  const siteUrl = `http://localhost:${options.port}`;
  const { child, output, exited } = await spawnServer({ ...options, siteUrl });
  // The one place these tests make outbound HTTP: to the service process they started.
  // eslint-disable-next-line no-restricted-globals
  const api = (path: string, init?: RequestInit) => fetch(`${siteUrl}${API_BASE_PATH}${path}`, init);
  return { process: child, api, output, exited };
}

/** Ends the child if it still runs; safe to call on one that already exited. */
export async function stopChildService(child: ChildService | undefined): Promise<void> {
  if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGKILL');
  await child.exited;
}
