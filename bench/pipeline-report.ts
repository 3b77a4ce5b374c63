/**
 * The pipeline part's table and notes (bench/pipeline.ts measures, bench/index.ts prints): one row
 * per design with each tree's outcome and median, their ratio, and on the default designs the
 * verdict on the budget of the change under way.
 */
import type { PipelineRow, PipelineSummary, Tree } from './pipeline.ts';

/** The change under way may make the pipeline at most this much slower than the baseline on the default designs. */
const BUDGET = 1.3;

export function printPipeline(summary: PipelineSummary): void {
  const rows = summary.rows.map((row) => ({ row, ratio: ratio(row) }));
  console.table(
    rows.map(({ row: { design, baseline, current }, ratio }) => ({
      design: design.name,
      'job (mm)': `${design.lengthMm} x ${design.widthMm}`,
      config: design.group === 'default' ? 'default' : `despeckle ${summary.despeckleAreaFraction}`,
      'baseline outcome': baseline?.outcome ?? '-',
      'current outcome': current.outcome,
      'baseline ms': ms(baseline?.medianMs),
      'current ms': ms(current.medianMs),
      'cur/base': ratio === undefined ? '-' : `${ratio.toFixed(2)}x`,
      'CPU cur/base': baseline ? `${(current.cpuMedianMs / baseline.cpuMedianMs).toFixed(2)}x` : '-',
      budget: verdict({ design, baseline, current }, ratio),
      'potrace C ms': ms(design.potraceCMs),
      'cur/potrace C':
        design.potraceCMs === undefined || current.medianMs === undefined
          ? '-'
          : `${(current.medianMs / design.potraceCMs).toFixed(1)}x`,
    })),
  );

  const b = summary.baseline;
  const potrace = summary.rows.some((r) => r.design.potraceCMs !== undefined)
    ? 'potrace C: median of 3 runs per design'
    : 'potrace C not installed';
  console.log(
    `pipeline: baseline ${'skipped' in b ? `none (${b.skipped})` : `${b.ref} (${b.commit.slice(0, 12)})`}, ` +
      `current ${summary.current}; rounds: ${summary.runs}, each uploading every design once into each tree ` +
      `back to back (first tree alternating), median of the submissions' durationMs (the budget's measure); ` +
      `CPU cur/base: the same for the service process's CPU time during the upload (all threads), steadier on a busy machine; ${potrace}`,
  );
  const judged = rows.filter(({ row, ratio }) => row.design.group === 'default' && ratio !== undefined);
  if (judged.length) {
    const met = judged.filter(({ ratio }) => ratio! <= BUDGET).length;
    console.log(
      `budget, pipeline median <= ${BUDGET.toFixed(2)}x the baseline's on the default designs: ` +
        `${met === judged.length ? 'met' : 'NOT met'} (${met} of ${judged.length})`,
    );
  }
  console.log(
    `configuration: default designs at the contract's (rate limits raised only); stress designs with ` +
      `despeckleAreaFraction ${summary.despeckleAreaFraction} (BENCH_DESPECKLE), as at the contract's they are refused FEATURES_TOO_FINE`,
  );
  const names = (group: string) =>
    summary.rows
      .filter((r) => r.design.group === group)
      .map((r) => r.design.name)
      .join(' / ');
  console.log(
    `peak RSS of the service process (workers included), one process per tree and configuration: ` +
      `default designs (${names('default')}): ${perTree(summary.peakRss.default, mb)}; ` +
      `stress designs (${names('stress')}): ${perTree(summary.peakRss.stress, mb)}`,
  );
  console.log(
    `GET /capabilities median while a 24 MP design is processed: ${perTree(summary.capsDuringMs, (v) => `${v.toFixed(1)} ms`)}`,
  );
}

const ratio = ({ baseline, current }: PipelineRow) =>
  baseline?.medianMs !== undefined && current.medianMs !== undefined ? current.medianMs / baseline.medianMs : undefined;

/** The budget on the default designs; on the stress designs, whether they end as they did. */
function verdict({ design, baseline, current }: PipelineRow, ratio: number | undefined): string {
  if (!baseline) return design.group === 'stress' ? 'stress' : 'no baseline';
  if (design.group === 'stress')
    return `stress, outcome ${baseline.outcome === current.outcome ? 'as before' : 'CHANGED'}`;
  if (ratio === undefined) return `<= ${BUDGET.toFixed(2)}x: no times to compare`;
  return `<= ${BUDGET.toFixed(2)}x: ${ratio <= BUDGET ? 'met' : 'NOT met'}`;
}

const ms = (value: number | undefined) => (value === undefined ? '-' : Math.round(value));

function perTree(figures: Partial<Record<Tree, number>>, show: (value: number) => string): string {
  return (['baseline', 'current'] as const)
    .flatMap((tree) => (figures[tree] === undefined ? [] : [`${tree} ${show(figures[tree])}`]))
    .join(', ');
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}
