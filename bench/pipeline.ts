/**
 * The pipeline part of `npm run bench`: the designs of bench/designs.ts uploaded into the real
 * service of the baseline tree (bench/baseline.ts) and of the working tree, side by side in one run.
 * Each tree's service runs in a child process of its own per configuration (bench/service-child.ts):
 * the default designs at the contract's configuration, then the stress designs with the lowered
 * despeckle fraction (BENCH_DESPECKLE, default 0.00001). After one untimed upload each, every round
 * uploads each design once into each tree, back to back, the tree going first alternating between
 * rounds, so a shared machine's drift falls on both alike; medians over BENCH_RUNS rounds (5).
 * Printed by bench/pipeline-report.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { materialiseBaseline, type Baseline } from './baseline.ts';
import { median, prepareDesigns, type BenchDesign, type DesignGroup } from './designs.ts';
import { onExit } from './on-exit.ts';
import type { ChildReply, ChildRequest } from './service-child.ts';
import { startServiceChild, type ServiceChild } from './start-service-child.ts';

export type Tree = 'baseline' | 'current';

/** One tree's figures for one design. */
export interface TreeFigures {
  /** Status and the error findings' codes (else the submission's status or the error code); each distinct one. */
  outcome: string;
  /** Median of the submissions' `durationMs`; undefined when no upload reported one. */
  medianMs: number | undefined;
  /** Median CPU time of the service process (all threads) during the upload. */
  cpuMedianMs: number;
}

export interface PipelineRow {
  design: BenchDesign;
  baseline: TreeFigures | undefined;
  current: TreeFigures;
}

export interface PipelineSummary {
  rows: PipelineRow[];
  runs: number;
  despeckleAreaFraction: number;
  /** The baseline's ref and commit, or why there is none. */
  baseline: { ref: string; commit: string } | { skipped: string };
  /** HEAD of the working tree and how many tracked files differ from it. */
  current: string;
  /** Peak RSS (VmHWM) of each service process. */
  peakRss: Record<DesignGroup, Partial<Record<Tree, number>>>;
  /** Median latency of `GET /capabilities` during the 24 MP uploads. */
  capsDuringMs: Partial<Record<Tree, number>>;
}

type Uploaded = Extract<ChildReply, { type: 'uploaded' }>;

const repoRoot = resolve(import.meta.dirname, '..');
/** Raised so that no upload waits; the pipeline's own settings stay the contract's. */
const limits = {
  jobsPerHourPerIp: 1e6,
  globalJobsPerDay: 1e6,
  submissionsPerHourPerIp: 1e6,
  globalSubmissionsPerMinute: 1e6,
  globalSubmissionsPerDay: 1e6,
};

export async function runPipelineBench(): Promise<PipelineSummary> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const despeckleAreaFraction = Number(process.env.BENCH_DESPECKLE ?? 0.00001);
  // At the contract's fraction every opening of the stress designs is filled and they are
  // refused FEATURES_TOO_FINE; lowered, they run through every stage with all their openings.
  const configs: Record<DesignGroup, object> = {
    default: { limits },
    stress: { limits, manufacturing: { despeckleAreaFraction } },
  };
  // Sizing the jobs and timing potrace C happen before any service starts.
  const designs = await prepareDesigns();

  const made = materialiseBaseline(repoRoot);
  const trees = {
    baseline: 'baseline' in made ? made.baseline : undefined,
    skipped: 'skipped' in made ? made.skipped : undefined,
  };
  if (trees.skipped) console.error(`pipeline bench: no baseline (${trees.skipped}); measuring the working tree alone`);
  const work = mkdtempSync(join(tmpdir(), 'bench-pipeline-'));
  const live = new Set<ServiceChild>();
  const stopAll = onExit(() => {
    for (const child of live) child.process.kill();
    rmSync(work, { recursive: true, force: true });
  });
  const uploads = new Map(designs.map((d) => [d, { baseline: [] as Uploaded[], current: [] as Uploaded[] }]));
  const peakRss: PipelineSummary['peakRss'] = { default: {}, stress: {} };
  try {
    for (const group of ['default', 'stress'] as const) {
      const configFile = join(work, `${group}.json`);
      writeFileSync(configFile, JSON.stringify(configs[group]));
      const start = (tree: Tree, root: string) =>
        startServiceChild(root, configFile, join(work, `${group}-${tree}.db`), live);
      const inGroup = designs.filter((d) => d.group === group);
      peakRss[group] = await measureGroup(inGroup, designs[0]!, runs, trees, start, (design, tree, reply) =>
        uploads.get(design)![tree].push(reply),
      );
    }
  } finally {
    stopAll();
    trees.baseline?.remove();
  }

  const hasBaseline = trees.skipped === undefined;
  const capsDuringMs: PipelineSummary['capsDuringMs'] = {};
  for (const tree of hasBaseline ? (['baseline', 'current'] as const) : (['current'] as const)) {
    const probes = [...uploads.values()].flatMap((u) => u[tree].flatMap((x) => x.probesMs));
    if (probes.length) capsDuringMs[tree] = median(probes);
  }
  return {
    rows: designs.map((design) => ({
      design,
      baseline: hasBaseline ? figures(uploads.get(design)!.baseline) : undefined,
      current: figures(uploads.get(design)!.current),
    })),
    runs,
    despeckleAreaFraction,
    baseline:
      'baseline' in made && hasBaseline
        ? { ref: made.baseline.ref, commit: made.baseline.commit }
        : { skipped: trees.skipped! },
    current: describeWorkingTree(),
    peakRss,
    capsDuringMs,
  };
}

/**
 * One configuration: a service per tree, one untimed upload of `warmUp` each (no timed upload then
 * waits for a worker's warm-up), the rounds, and each service's peak RSS. A baseline that fails is
 * dropped, saying why, and the working tree measured alone; a failure of the working tree ends the
 * benchmark.
 */
async function measureGroup(
  designs: BenchDesign[],
  warmUp: BenchDesign,
  runs: number,
  trees: { baseline: Baseline | undefined; skipped: string | undefined },
  start: (tree: Tree, root: string) => Promise<ServiceChild>,
  record: (design: BenchDesign, tree: Tree, reply: Uploaded) => void,
): Promise<Partial<Record<Tree, number>>> {
  const dropBaseline = (why: string) => {
    trees.skipped = why;
    console.error(`pipeline bench: baseline dropped (${why}); measuring the working tree alone`);
    trees.baseline?.remove();
    trees.baseline = undefined;
  };
  const services: { tree: Tree; child: ServiceChild }[] = [];
  if (trees.baseline) {
    try {
      services.push({ tree: 'baseline', child: await start('baseline', trees.baseline.root) });
    } catch (error) {
      dropBaseline(`its service did not start: ${(error as Error).message}`);
    }
  }
  services.push({ tree: 'current', child: await start('current', repoRoot) });
  const ask = async ({ tree, child }: (typeof services)[number], request: ChildRequest) => {
    if (tree === 'baseline' && !trees.baseline) return undefined;
    try {
      return await child.ask(request);
    } catch (error) {
      if (tree === 'current') throw error;
      child.process.kill();
      dropBaseline(`its service failed: ${(error as Error).message}`);
      return undefined;
    }
  };
  const upload = ({ file, lengthMm, widthMm }: BenchDesign, probe: boolean): ChildRequest => {
    return { type: 'upload', file, lengthMm, widthMm, probe };
  };

  for (const service of services) await ask(service, upload(warmUp, false));
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? services : [...services].reverse();
    for (const design of designs) {
      for (const service of order) {
        const reply = await ask(service, upload(design, design.probe));
        if (reply?.type !== 'uploaded') continue;
        record(design, service.tree, reply);
        if (process.env.BENCH_DEBUG) {
          console.error(service.tree, design.name, reply.outcome, reply.durationMs, Math.round(reply.cpuMs));
        }
      }
    }
  }
  const peakRss: Partial<Record<Tree, number>> = {};
  for (const service of services) {
    const reply = await ask(service, { type: 'close' });
    if (reply?.type === 'closed') peakRss[service.tree] = reply.peakRss;
  }
  return peakRss;
}

function figures(uploaded: Uploaded[]): TreeFigures {
  const times = uploaded.flatMap((u) => (u.durationMs === null ? [] : [u.durationMs]));
  return {
    outcome: [...new Set(uploaded.map((u) => u.outcome))].join(' / '),
    medianMs: times.length ? median(times) : undefined,
    cpuMedianMs: median(uploaded.map((u) => u.cpuMs)),
  };
}

function describeWorkingTree(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['--no-optional-locks', '-C', repoRoot, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    const changed = git('status', '--porcelain', '--untracked-files=no').split('\n').filter(Boolean).length;
    return `working tree (HEAD ${git('rev-parse', '--short', 'HEAD').trim()}, ${changed} tracked files changed)`;
  } catch {
    return 'working tree';
  }
}
