/**
 * The REST part of `npm run bench`: requests per second of `GET /capabilities` and `POST /jobs`
 * with autocannon over loopback, against the service exactly as `npm start` runs it (server.ts in
 * its own process, embedded database on a temp file, access log written to a file) and against a
 * bare hono app answering the same bodies (bench/bare-hono.ts), in the same run. The load
 * generator runs in this process, so each server has the other core to itself as far as the
 * machine allows. Runs alternate between the two servers and the median counts. Printed by
 * bench/index.ts (`npm run bench`, or `npm run bench -- rest` for this part alone).
 *
 * Settings: BENCH_REST_SEC (seconds per run, 3), BENCH_REST_RUNS (runs per server and case, 3),
 * BENCH_REST_CONNECTIONS (10).
 */
import { START_NODE_FLAGS } from '../test/helpers/start-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '@libsql/client';
import autocannon from 'autocannon';
import { API_BASE_PATH } from '../core/urls.ts';

const seconds = Number(process.env.BENCH_REST_SEC ?? 3);
const runs = Number(process.env.BENCH_REST_RUNS ?? 3);
const connections = Number(process.env.BENCH_REST_CONNECTIONS ?? 10);
const root = resolve(import.meta.dirname, '..');
const jobBody = JSON.stringify({ productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 });

export interface RestRow {
  case: string;
  /** Median requests per second of the service. */
  serviceRps: number;
  /** Median requests per second of the bare hono app. */
  bareRps: number;
  /** Median of the service's p99 latencies, ms. */
  serviceP99Ms: number;
  /** Median CPU time of the service process per request, ms (all threads): steadier than the rate on a busy machine. */
  serviceCpuMsPerRequest: number;
  /** POST cases: hits in the daily job bucket at the end, the window the last requests checked. */
  windowHits: number | undefined;
  target: string;
  met: boolean;
}

export interface RestResult {
  rows: RestRow[];
  /** VmHWM of the service process after the whole REST run. */
  servicePeakRss: number;
  seconds: number;
  runs: number;
  connections: number;
}

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A fresh Idempotency-Key on every request. */
  idempotencyKey?: boolean;
  target: (serviceRps: number, bareRps: number) => { text: string; met: boolean };
}

const cases: Case[] = [
  {
    name: 'GET /capabilities',
    method: 'GET',
    path: '/capabilities',
    target: (s, b) => ({ text: '>= 0.7x bare hono', met: s >= 0.7 * b }),
  },
  {
    name: 'POST /jobs',
    method: 'POST',
    path: '/jobs',
    target: (s) => ({ text: '>= 500 req/s', met: s >= 500 }),
  },
  {
    name: 'POST /jobs with Idempotency-Key',
    method: 'POST',
    path: '/jobs',
    idempotencyKey: true,
    target: (s) => ({ text: '>= 500 req/s', met: s >= 500 }),
  },
];

/** Throughput scenarios would hit the per-address job limit (30 an hour) within a second. */
const benchLimits = { jobsPerHourPerIp: 1e9, globalJobsPerDay: 1e9 };

export async function runRestBench(): Promise<RestResult> {
  const work = mkdtempSync(join(tmpdir(), 'bench-rest-'));
  const children: ChildProcess[] = [];
  try {
    writeFileSync(join(work, 'config.json'), JSON.stringify({ limits: benchLimits }));
    let service = await startService(work, 'capabilities', children);

    // The only outbound HTTP here: to the servers this benchmark started on loopback.
    // eslint-disable-next-line no-restricted-globals
    const capabilities = await (await fetch(`${service.origin}${API_BASE_PATH}/capabilities`)).json();
    // eslint-disable-next-line no-restricted-globals
    const createdResponse = await fetch(`${service.origin}${API_BASE_PATH}/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: jobBody,
    });
    if (createdResponse.status !== 201) throw new Error(`POST /jobs answered ${createdResponse.status}`);
    writeFileSync(join(work, 'bodies.json'), JSON.stringify({ capabilities, created: await createdResponse.json() }));
    const bare = spawn(process.execPath, [join(root, 'bench/bare-hono.ts'), join(work, 'bodies.json')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(bare);
    const bareOrigin = `http://127.0.0.1:${await firstLinePort(bare)}`;

    const rows: RestRow[] = [];
    let servicePeakRss = 0;
    for (const c of cases) {
      if (c.method === 'POST') {
        // Each POST case starts on an empty database: the limiter counts the hits in its
        // window on every request, so one case's hits would slow the next.
        servicePeakRss = Math.max(servicePeakRss, peakRss(service.child.pid!));
        await stop(service.child);
        service = await startService(work, c.name.replace(/\W+/g, '-'), children);
      }
      // A short untimed run warms both servers (JIT, statement caches) before the timed ones.
      await load(service.origin, c, 1);
      await load(bareOrigin, c, 1);
      const serviceRuns: Run[] = [];
      const bareRuns: Run[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternating which goes first spreads the drift of a shared machine over both.
        const order = i % 2 === 0 ? ['service', 'bare'] : ['bare', 'service'];
        for (const which of order) {
          if (which === 'service') serviceRuns.push(await load(service.origin, c, seconds, service.child.pid!));
          else bareRuns.push(await load(bareOrigin, c, seconds, bare.pid!));
        }
      }
      const serviceRps = median(serviceRuns.map(rps));
      const bareRps = median(bareRuns.map(rps));
      const target = c.target(serviceRps, bareRps);
      rows.push({
        case: c.name,
        serviceRps,
        bareRps,
        serviceP99Ms: median(serviceRuns.map((r) => r.result.latency.p99)),
        serviceCpuMsPerRequest: median(serviceRuns.map((r) => r.cpuMsPerRequest)),
        windowHits: c.method === 'POST' ? await windowHits(service.dbFile) : undefined,
        target: target.text,
        met: target.met,
      });
    }
    servicePeakRss = Math.max(servicePeakRss, peakRss(service.child.pid!));
    return { rows, servicePeakRss, seconds, runs, connections };
  } finally {
    await Promise.all(children.map(stop));
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * server.ts in its own process, as `npm start` runs it, on a database of its own; the access
 * log goes to a file, as a platform would collect it. Resolves once it listens and its pipeline
 * workers have warmed up (they start after the port opens, and would be charged to the first run).
 */
async function startService(work: string, name: string, children: ChildProcess[]) {
  const dbFile = join(work, `${name}.db`);
  const logFile = join(work, `${name}.log`);
  const child = spawn(process.execPath, [...START_NODE_FLAGS, join(root, 'server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      // As package.json's start script sets them.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576',
      PORT: '0',
      DATABASE_URL: `file:${dbFile}`,
      CONFIG_FILE: join(work, 'config.json'),
    },
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  });
  children.push(child);
  const origin = `http://127.0.0.1:${await listeningPort(logFile, child)}`;
  await settled(child.pid!);
  return { child, origin, dbFile };
}

/** Hits in the global daily bucket: what each POST /jobs counted at the end of its case. */
async function windowHits(dbFile: string): Promise<number> {
  const client = createClient({ url: `file:${dbFile}` });
  try {
    const { rows } = await client.execute("SELECT count(*) AS n FROM rate_hits WHERE bucket = 'globalJobsPerDay:*'");
    return Number(rows[0]!.n);
  } finally {
    client.close();
  }
}

interface Run {
  result: autocannon.Result;
  cpuMsPerRequest: number;
}

const rps = (r: Run) => r.result.requests.total / (r.result.duration || seconds);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One autocannon run; any answer but the case's success, or any socket error, fails the bench. */
async function load(origin: string, c: Case, duration: number, pid?: number): Promise<Run> {
  const cpuBefore = pid === undefined ? 0 : cpuMs(pid);
  const headers: Record<string, string> = c.method === 'POST' ? { 'content-type': 'application/json' } : {};
  const result = await autocannon({
    url: `${origin}${API_BASE_PATH}${c.path}`,
    method: c.method,
    connections,
    duration,
    headers,
    ...(c.method === 'POST' ? { body: jobBody } : {}),
    ...(c.idempotencyKey
      ? {
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
              }),
            },
          ],
        }
      : {}),
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `${c.name} on ${origin}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const cpuMsPerRequest = pid === undefined ? NaN : (cpuMs(pid) - cpuBefore) / result.requests.total;
  return { result, cpuMsPerRequest };
}

/** The port from the service's `listening` log line (server.ts logs it once it listens). */
async function listeningPort(logFile: string, child: ChildProcess): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (line.includes('"msg":"listening"')) return (JSON.parse(line) as { port: number }).port;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the service did not start listening within 60 s');
}

async function firstLinePort(child: ChildProcess): Promise<number> {
  for await (const line of createInterface({ input: child.stdout! })) {
    return (JSON.parse(line) as { port: number }).port;
  }
  throw new Error('the bare hono app exited before listening');
}

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Waits until the process uses under a tenth of a core over half a second (at most 30 s). */
async function settled(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let before = cpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs(pid);
    if (now - before < 50) return;
    before = now;
  }
}

/** The process's peak resident set (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
