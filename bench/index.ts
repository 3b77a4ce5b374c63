/**
 * `npm run bench`: the REST part (bench/rest.ts) and then the pipeline part (bench/pipeline.ts,
 * the baseline tree and the working tree side by side, each service in a process of its own so
 * that its memory figure is the service's alone), printed as two tables. `npm run bench -- rest`
 * or `-- pipeline` runs one part. Settings: BENCH_RUNS, BENCH_DESPECKLE and BENCH_BASELINE
 * (pipeline), BENCH_REST_SEC, BENCH_REST_RUNS and BENCH_REST_CONNECTIONS (REST).
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { runPipelineBench } from './pipeline.ts';
import { printPipeline } from './pipeline-report.ts';
import { runRestBench, type RestResult } from './rest.ts';

const only = process.argv[2];
if (only !== undefined && only !== 'rest' && only !== 'pipeline') {
  throw new Error(`unknown part "${only}": use rest or pipeline`);
}

const loadBefore = loadavg()[0]!;
const rest = only === 'pipeline' ? undefined : await runRestBench();
const pipeline = only === 'rest' ? undefined : await runPipelineBench();

if (rest) {
  console.table(restRows(rest));
  console.log(
    `REST: ${rest.connections} connections, ${rest.runs} runs of ${rest.seconds} s per server and case, median; ` +
      `peak RSS of the service process: ${mb(rest.servicePeakRss)}`,
  );
}
if (pipeline) printPipeline(pipeline);
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
