/**
 * One service for the pipeline benchmark, in a process of its own so that its peak RSS is the
 * service's (workers included): the real service as `npm start` builds it (system clock, worker
 * pool, embedded database), imported from the tree given as the first argument, so the same
 * driver measures the baseline worktree and the working tree. Started by bench/pipeline.ts with
 * `node --import tsx bench/service-child.ts <tree> <config file> <database file>` and an IPC
 * channel; it answers one request at a time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What bench/pipeline.ts asks. */
export type ChildRequest =
  { type: 'upload'; file: string; lengthMm: number; widthMm: number; probe: boolean } | { type: 'close' };

/** What the child answers: `ready` once its workers have warmed up, one `uploaded` per upload, `closed` last. */
export type ChildReply =
  | { type: 'ready' }
  | {
      type: 'uploaded';
      outcome: string;
      /** The submission's `durationMs`: the pipeline's time as the service reports it. */
      durationMs: number | null;
      /** CPU time of the whole process (every thread) during the upload request: steadier on a busy machine. */
      cpuMs: number;
      probesMs: number[];
    }
  | { type: 'closed'; peakRss: number }
  | { type: 'failed'; error: string };

const [root, configFile, dbFile] = process.argv.slice(2) as [string, string, string];
const send = (reply: ChildReply) =>
  // After `closed`, the process ends once the answer is out.
  process.send!(reply, () => reply.type === 'closed' && process.exit(0));
// Without the benchmark at the other end, nothing is left to measure.
process.on('disconnect', () => process.exit(1));

// Only types come from this tree: the code is the measured tree's.
const fromTree = (path: string) => import(pathToFileURL(join(root, path)).href);
// The composition root moved from http/service.ts to the root (issue 16); baselines may predate that.
const rootModule = existsSync(join(root, 'service.ts')) ? 'service.ts' : 'http/service.ts';
const { buildService } = (await fromTree(rootModule)) as typeof import('../service.ts');
const { systemClock } = (await fromTree('core/clock.ts')) as typeof import('../core/clock.ts');
const { silentLogger } = (await fromTree('core/logger.ts')) as typeof import('../core/logger.ts');
const { cryptoRandomness } = (await fromTree('core/randomness.ts')) as typeof import('../core/randomness.ts');
const { API_BASE_PATH } = (await fromTree('core/urls.ts')) as typeof import('../core/urls.ts');

const service = await buildService(
  {
    port: 0,
    siteUrl: 'http://localhost:8787',
    databaseUrl: `file:${dbFile}`,
    databaseAuthToken: undefined,
    configFile,
    apiEnabled: true,
    trustProxy: false,
  },
  { clock: systemClock, random: cryptoRandomness, log: silentLogger },
);
const api = (path: string, init?: RequestInit) =>
  Promise.resolve(
    service.app.request(`http://localhost:8787${API_BASE_PATH}${path}`, init, {
      incoming: { socket: { remoteAddress: '127.0.0.1' } },
    }),
  );
const pngs = new Map<string, Buffer>();

process.on('message', (request: ChildRequest) => {
  const answer = request.type === 'upload' ? upload(request) : close();
  answer.then(send, (error: unknown) => send({ type: 'failed', error: String(error) }));
});
// The workers warm up after the pool starts; that would otherwise be charged to the first upload.
await settled();
send({ type: 'ready' });

/** One upload in a fresh job; while `probe`, `GET /capabilities` every 20 ms. */
async function upload(request: Extract<ChildRequest, { type: 'upload' }>): Promise<ChildReply> {
  const png = pngs.get(request.file) ?? readFileSync(request.file);
  pngs.set(request.file, png);
  const opened = await api('/jobs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productType: 'bracelet', size: { lengthMm: request.lengthMm }, widthMm: request.widthMm }),
  });
  if (opened.status !== 201) throw new Error(`POST /jobs answered ${opened.status}: ${await opened.text()}`);
  const { job, credentials }: any = await opened.json();

  let probing = request.probe;
  const probesMs: number[] = [];
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      await api('/capabilities');
      probesMs.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const cpu = process.cpuUsage();
  const response = await api(`/jobs/${job.id}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${credentials.jobSecret}` },
    body: png as unknown as BodyInit,
  });
  const used = process.cpuUsage(cpu);
  probing = false;
  await probe;

  const body: any = await response.json();
  const codes = [...new Set<string>((body.submission?.validation.errors ?? []).map((e: any) => e.code))];
  return {
    type: 'uploaded',
    // The error findings' codes say more than the submission's status `failed_validation`.
    outcome: [response.status, ...(codes.length ? codes : [body.submission?.status ?? body.error?.code])].join(' '),
    durationMs: body.submission?.durationMs ?? null,
    cpuMs: (used.user + used.system) / 1000,
    probesMs,
  };
}

async function close(): Promise<ChildReply> {
  await service.close();
  return { type: 'closed', peakRss: peakRss() };
}

/** The process's peak resident set (VmHWM, every thread's memory), in bytes. */
function peakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Waits until the process uses under a tenth of a core over half a second (at most 30 s). */
async function settled(): Promise<void> {
  const deadline = performance.now() + 30_000;
  let before = process.cpuUsage();
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const used = process.cpuUsage(before);
    if (used.user + used.system < 50_000) return;
    before = process.cpuUsage();
  }
}
