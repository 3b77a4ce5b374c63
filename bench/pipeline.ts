/**
 * The pipeline inside the service on the three shared designs (median of
 * repeated uploads, each in a fresh job), Debian's potrace C program on the same thresholded
 * bitmaps for comparison, peak memory of the process (workers included), and how fast
 * GET /capabilities answers while a 24-megapixel upload is being processed. The second part of
 * `npm run bench` (bench/index.ts); alone: `node --expose-gc --import tsx bench/pipeline.ts`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { systemClock } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import { cryptoRandomness } from '../core/randomness.ts';
import { API_BASE_PATH } from '../core/urls.ts';
import { buildService } from '../http/service.ts';

const benchDir = resolve(import.meta.dirname, '../../shared/bench');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const designs = [
  { name: 'standard strip (100 openings)', file: 'strip-100-holes-1536x1024.png' },
  { name: 'lace (2200 openings)', file: 'lace-2200-holes-1536x1024.png' },
  { name: '24 MP lace (8500 openings)', file: 'lace-24mp-8192x2929.png' },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function inkBox(png: Buffer) {
  const { data, info } = await sharp(png, { limitInputPixels: 24e6 })
    .flatten({ background: '#fff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let x0 = info.width,
    y0 = info.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! < 128) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return { ratio: (x1 - x0 + 1) / (y1 - y0 + 1), data, w: info.width, h: info.height };
}

function potraceMs(data: Buffer, w: number, h: number): number | undefined {
  if (spawnSync('potrace', ['--version']).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bench-potrace-'));
  const rowBytes = Math.ceil(w / 8);
  const pbm = Buffer.alloc(rowBytes * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (data[y * w + x]! < 128) pbm[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  const file = join(dir, 'design.pbm');
  writeFileSync(file, Buffer.concat([Buffer.from(`P4\n${w} ${h}\n`), pbm]));
  const times = Array.from({ length: 3 }, () => {
    const t = performance.now();
    execFileSync('potrace', ['-s', '-o', join(dir, 'out.svg'), file]);
    return performance.now() - t;
  });
  rmSync(dir, { recursive: true, force: true });
  return median(times);
}

// Everything the benchmark itself needs (reading, sizing, the potrace C run) happens before the
// service starts, so the memory sampled is the service's alone.
const prepared = [];
for (const design of designs) {
  const png = readFileSync(join(benchDir, design.file));
  const box = await inkBox(png);
  const lengthMm = Math.min(155, Math.floor(80 * box.ratio * 0.98));
  prepared.push({
    ...design,
    png,
    lengthMm,
    widthMm: Number((lengthMm / box.ratio).toFixed(2)),
    potraceCMs: potraceMs(box.data, box.w, box.h),
  });
}
(globalThis as { gc?: () => void }).gc?.();

const limits = {
  jobsPerHourPerIp: 1e6,
  globalJobsPerDay: 1e6,
  submissionsPerHourPerIp: 1e6,
  globalSubmissionsPerMinute: 1e6,
  globalSubmissionsPerDay: 1e6,
};
const work = mkdtempSync(join(tmpdir(), 'bench-service-'));
// Every lace opening is under 0.04 % of the piece's area, so the contract's despeckling would fill
// them all (and the gate refuse the design as FEATURES_TOO_FINE) at any job size. The benchmark
// lowers the fraction so each design runs through every stage with all its openings.
const despeckleAreaFraction = Number(process.env.BENCH_DESPECKLE ?? 0.00001);
writeFileSync(join(work, 'config.json'), JSON.stringify({ limits, manufacturing: { despeckleAreaFraction } }));
// The real service as `npm start` builds it: system clock, worker pool, embedded database.
const service = await buildService(
  {
    port: 0,
    siteUrl: 'http://localhost:8787',
    databaseUrl: `file:${join(work, 'bench.db')}`,
    databaseAuthToken: undefined,
    configFile: join(work, 'config.json'),
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
async function openJob(body: unknown) {
  const response = await api('/jobs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: any = await response.json();
  return { id: json.job.id as string, secret: json.credentials.jobSecret as string };
}
const uploadPng = (job: { id: string; secret: string }, png: Buffer) =>
  api(`/jobs/${job.id}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${job.secret}` },
    body: png as unknown as BodyInit,
  });
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);

const rows = [];
let capsDuringMs = 0;
for (const design of prepared) {
  const { png, lengthMm, widthMm, potraceCMs: c } = design;
  const server: number[] = [];
  const wall: number[] = [];
  let outcome = '';
  for (let i = 0; i < runs; i++) {
    const job = await openJob({ productType: 'bracelet', size: { lengthMm }, widthMm });
    let probing = design.file.includes('24mp');
    const probes: number[] = [];
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await api('/capabilities');
        probes.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t = performance.now();
    const response = await uploadPng(job, png);
    wall.push(performance.now() - t);
    probing = false;
    await probe;
    if (probes.length) capsDuringMs = Math.max(capsDuringMs, median(probes));
    const body: any = await response.json();
    server.push(body.submission?.durationMs ?? NaN);
    if (process.env.BENCH_DEBUG) console.log(design.file, wall.at(-1));
    outcome = `${response.status} ${body.submission?.status ?? body.error?.code} ${(body.submission?.validation.errors ?? []).map((e: any) => e.code).join(',')}`;
  }
  rows.push({
    design: design.name,
    job: `${lengthMm} x ${widthMm} mm`,
    outcome,
    'pipeline median (ms)': Math.round(median(server)),
    'request median (ms)': Math.round(median(wall)),
    'potrace C (ms)': c === undefined ? 'not installed' : Math.round(c),
    'ratio to potrace C': c === undefined ? 'n/a' : (median(server) / c).toFixed(1),
  });
}
clearInterval(sampler);
await service.close();
rmSync(work, { recursive: true, force: true });
const summary: PipelineSummary = { rows, peakRss, capsDuringMs, runs };
// Started by bench/index.ts (with an IPC channel), the figures go to its combined table.
if (process.send) process.send(summary, () => process.disconnect());
else printPipeline(summary);

export interface PipelineSummary {
  rows: typeof rows;
  peakRss: number;
  capsDuringMs: number;
  runs: number;
}

function printPipeline({ rows, peakRss, capsDuringMs, runs }: PipelineSummary): void {
  console.table(rows);
  console.log(`peak RSS of the service process (workers included): ${(peakRss / 1e6).toFixed(0)} MB`);
  console.log(`GET /capabilities median while a 24 MP upload is processed: ${capsDuringMs.toFixed(1)} ms`);
  console.log(`runs per design: ${runs}; machine: ${cpus()[0]?.model}, ${availableParallelism()} cores`);
}
