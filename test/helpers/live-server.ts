import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { systemClock } from '../../core/clock.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import type { Pipeline } from '../../core/pipeline/types.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import { API_BASE_PATH } from '../../core/urls.ts';
import { listen } from '../../http/server-options.ts';
import { buildService, type Service } from '../../service.ts';
import { spawnServer } from './child-service.ts';
import { freePort } from './sqld.ts';

/** The real service listening on a loopback port, reached with real HTTP. */
export interface LiveServer {
  /** `http://127.0.0.1:<port>`, also the service's site URL. */
  url: string;
  host: string;
  port: number;
  /** A real HTTP request to `path` on the site (`/healthz`, `/a/{token}`). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A real HTTP request to `path` under the API base. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the server (cutting open connections) and removes its temp folder. */
  close(): Promise<void>;
}

export interface LiveServerOptions {
  /** Configuration override (the `CONFIG_FILE` contents); the built-in defaults when absent. */
  config?: object;
  /** `DATABASE_URL`; an embedded database in the temp folder when absent. */
  databaseUrl?: string;
}

export interface InProcessLiveServer extends LiveServer {
  service: Service;
  server: ServerType;
}

export interface SpawnedLiveServer extends LiveServer {
  pid: number;
  process: ChildProcess;
  /** Every line it printed so far (JSON log lines on stdout, anything on stderr). */
  output: string[];
  /** The process's current and peak resident memory (`VmRSS`, `VmHWM`), in bytes. */
  memory(): { rssBytes: number; peakRssBytes: number };
  /** Starts the peak over from the current RSS (`/proc/<pid>/clear_refs`), to measure one phase. */
  resetPeak(): void;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals>;
}

function tempFolder(options: LiveServerOptions): { dir: string; configFile?: string; databaseUrl: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-live-'));
  const databaseUrl = options.databaseUrl ?? `file:${join(dir, 'live.db')}`;
  if (!options.config) return { dir, databaseUrl };
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(options.config));
  return { dir, configFile, databaseUrl };
}

function requestsTo(url: string): Pick<LiveServer, 'fetch' | 'api'> {
  // The one place these tests make outbound HTTP: to the service they started on loopback.
  // eslint-disable-next-line no-restricted-globals
  const site = (path: string, init?: RequestInit) => fetch(`${url}${path}`, init);
  return { fetch: site, api: (path, init) => site(`${API_BASE_PATH}${path}`, init) };
}

/**
 * The service as `server.ts` wires it (system clock, worker-pool pipeline unless one is given,
 * the same `node:http` settings), inside this process on a free loopback port. The server
 * listens first and the service is built for the port it got, so links in answers are real.
 */
export async function startLiveServer(
  options: LiveServerOptions & { log?: Logger; pipeline?: Pipeline } = {},
): Promise<InProcessLiveServer> {
  const { dir, configFile, databaseUrl } = tempFolder(options);
  // Filled in once the service is built for the port the server got.
  const built: { app?: Hono } = {};
  const server = listen({
    fetch: (request, env) => (built.app ? built.app.fetch(request, env) : new Response(null, { status: 503 })),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const service = await buildService(
    { port, siteUrl: url, databaseUrl, databaseAuthToken: undefined, configFile, apiEnabled: true, trustProxy: false },
    {
      clock: systemClock,
      random: cryptoRandomness,
      log: options.log ?? silentLogger,
      ...(options.pipeline ? { pipeline: options.pipeline } : {}),
    },
  );
  built.app = service.app;
  return {
    url,
    host: '127.0.0.1',
    port,
    ...requestsTo(url),
    service,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would hold `close` open.
        (server as Server).closeAllConnections();
      });
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A `/proc/<pid>/status` field in bytes (the kernel reports kB). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * `server.ts` in a process of its own, started as `npm start` starts it (plain node, and the same
 * allocator settings), with the run interface's env vars; resolves once it listens.
 */
export async function spawnLiveServer(
  options: LiveServerOptions & { env?: Record<string, string> } = {},
): Promise<SpawnedLiveServer> {
  const { dir, configFile, databaseUrl } = tempFolder(options);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, output, exited } = await spawnServer({
    port,
    siteUrl: url,
    databaseUrl,
    env: { ...(configFile ? { CONFIG_FILE: configFile } : {}), ...options.env },
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url,
    host: '127.0.0.1',
    port,
    ...requestsTo(url),
    pid: child.pid!,
    process: child,
    output,
    exited,
    memory: () => ({ rssBytes: statusBytes(child.pid!, 'VmRSS'), peakRssBytes: statusBytes(child.pid!, 'VmHWM') }),
    resetPeak: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    async close() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
