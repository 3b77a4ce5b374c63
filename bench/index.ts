/**
 * `npm run bench`: the REST part (bench/rest.ts) and then the pipeline part (bench/pipeline.ts,
 * in a process of its own so that its memory figure is the service's alone), printed as one
 * table. `npm run bench -- rest` or `-- pipeline` runs one part. Settings: BENCH_RUNS and
 * BENCH_DESPECKLE (pipeline), BENCH_REST_SEC, BENCH_REST_RUNS and BENCH_REST_CONNECTIONS (REST).
 */
import { fork } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { PipelineSummary } from './pipeline.ts';
import { runRestBench, type RestResult } from './rest.ts';

const only = process.argv[2];
if (only !== undefined && only !== 'rest' && only !== 'pipeline') {
  throw new Error(`unknown part "${only}": use rest or pipeline`);
}

const loadBefore = loadavg()[0]!;
const rest = only === 'pipeline' ? undefined : await runRestBench();
const pipeline = only === 'rest' ? undefined : await runPipeline();

console.table([...(rest ? restRows(rest) : []), ...(pipeline ? pipelineRows(pipeline) : [])]);
if (rest) {
  console.log(
    `REST: ${rest.connections} connections, ${rest.runs} runs of ${rest.seconds} s per server and case, median; ` +
      `peak RSS of the service process: ${mb(rest.servicePeakRss)}`,
  );
}
if (pipeline) {
  console.log(
    `pipeline: ${pipeline.runs} runs per design, median; peak RSS of the service process (workers included): ` +
      `${mb(pipeline.peakRss)}; GET /capabilities median while a 24 MP upload is processed: ${pipeline.capsDuringMs.toFixed(1)} ms`,
  );
}
console.log(
  `machine: ${cpus()[0]?.model}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${process.versions.node}; load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
);

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

function restRows(result: RestResult) {
  return result.rows.map((r) => ({
    part: 'REST',
    case: r.case,
    measured:
      `${Math.round(r.serviceRps)} req/s, p99 ${r.serviceP99Ms} ms, ${r.serviceCpuMsPerRequest.toFixed(2)} ms CPU/req` +
      (r.windowHits === undefined ? '' : `, ${r.windowHits} hits in window at end`),
    reference: `bare hono ${Math.round(r.bareRps)} req/s`,
    ratio: `${(r.serviceRps / r.bareRps).toFixed(2)}x`,
    'target / outcome': `${r.target}: ${r.met ? 'met' : 'NOT met'}`,
  }));
}

function pipelineRows(summary: PipelineSummary) {
  return summary.rows.map((r) => ({
    part: 'pipeline',
    case: `${r.design}, ${r.job}`,
    measured: `${r['pipeline median (ms)']} ms pipeline, ${r['request median (ms)']} ms request`,
    reference:
      typeof r['potrace C (ms)'] === 'number' ? `potrace C ${r['potrace C (ms)']} ms` : 'potrace C not installed',
    ratio: r['ratio to potrace C'] === 'n/a' ? 'n/a' : `${r['ratio to potrace C']}x`,
    'target / outcome': r.outcome,
  }));
}

/** bench/pipeline.ts in a child with an IPC channel, as `npm run bench` starts Node for it. */
function runPipeline(): Promise<PipelineSummary> {
  return new Promise((resolve, reject) => {
    const child = fork(join(import.meta.dirname, 'pipeline.ts'), {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      // The allocator settings of `npm start` (package.json), unless the caller set others.
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
        MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let summary: PipelineSummary | undefined;
    child.on('message', (message) => (summary = message as PipelineSummary));
    child.on('error', reject);
    child.on('exit', (code) =>
      summary ? resolve(summary) : reject(new Error(`bench/pipeline.ts exited with ${code} before reporting`)),
    );
  });
}
