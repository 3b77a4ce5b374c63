/**
 * Labels a drawing by what a laser could do with it, independently of our pipeline: the faithful
 * reference trace (`test/helpers/reference-trace/`, specks under the despeckle area left out as
 * the service fills them) measured by the independent checker, and every place it fails judged by
 * the house decisions (`house-rules.ts`):
 *
 *   const { label, defects } = await labelDesign(png, { lengthMm: 155, widthMm: 20 });
 *   // 'cuttable' | 'repairable' | 'unrepairable'
 */
import { checkCutSvg, type CutReport } from '../cut-check/index.ts';
import { referenceTrace, type Strip } from '../reference-trace/index.ts';
import { metalDefects, openingDefects } from './defects.ts';
import { borderlineOf, HOUSE, labelOf, near, type Answer, type Defect, type Label } from './house-rules.ts';
import { judgeMetalParts } from './islands.ts';

export { HOUSE, labelOf, type Answer, type Defect, type DefectKind, type Label } from './house-rules.ts';

export interface ArtworkLabel {
  label: Label;
  /** Some defect was too close to its limit to call (see `house-rules.ts`). */
  borderline: boolean;
  /** What the service must answer: ready, refused, or either when a borderline defect could tip it. */
  answer: Answer;
  defects: Defect[];
  reference: ReferenceFigures;
}

/** What the faithful file holds, for reports and for reading a label. */
export interface ReferenceFigures {
  /** The faithful file (specks left out) passes the checker. */
  ok: boolean;
  openings: number;
  outlineCuts: number;
  specks: number;
  specksAreaMm2: number;
  islands: number;
  pieces: number;
  thinMetal: number;
  narrowOpenings: number;
  openAreaPct: number;
  /** Share of the open area that filling specks and openings narrower than the floor would take. */
  fineShare: number;
  /** Job ratio over drawn ratio. */
  stretch: number;
  pixelMm: { x: number; y: number };
  droppedRegions: number;
}

/** The drawing's label, its defects (each located in mm with the house's verdict) and the reference's figures. */
export async function labelDesign(png: Buffer, job: Strip): Promise<ArtworkLabel> {
  const strip = { lengthMm: job.lengthMm, widthMm: job.widthMm };
  const despeckleMm2 = HOUSE.despeckleAreaFraction * strip.lengthMm * strip.widthMm;
  const trace = await referenceTrace(png, strip, { omitOpeningsBelowMm2: despeckleMm2 });
  const report = checkCutSvg(trace.svg, HOUSE.rules, { maxPlaces: Number.MAX_SAFE_INTEGER });
  if (report.formatProblems.length > 0 || report.polygonProblemCount > 0) {
    // The reference is written to pass these rules: a departure is a bug in the tracer.
    throw new Error(
      `reference file breaks the format: ${JSON.stringify([report.formatProblems, report.polygonProblems])}`,
    );
  }
  const parts = judgeMetalParts(report.grid, report.tolMm);
  const narrowLabels = new Set<number>();
  const defects: Defect[] = [
    ...openingDefects(report, narrowLabels),
    ...metalDefects(report, parts.component, parts.removed),
    ...parts.defects,
  ];

  defects.push(...atTheFloor(trace.svg, report, parts.component, parts.removed, defects));

  const specks = trace.cuts.filter((cut) => cut.omitted);
  const specksAreaMm2 = specks.reduce((sum, cut) => sum + cut.areaMm2, 0);
  const narrowAreaMm2 = [...narrowLabels].reduce((sum, label) => sum + report.openings[label - 1]!.areaMm2, 0);
  const openAreaMm2 = specksAreaMm2 + report.openings.reduce((sum, opening) => sum + opening.areaMm2, 0);
  const fineShare = openAreaMm2 > 0 ? (specksAreaMm2 + narrowAreaMm2) / openAreaMm2 : 0;
  if (fineShare > HOUSE.fineShare) {
    const at = specks[0] ?? report.openings[[...narrowLabels][0]! - 1]!;
    defects.push({
      kind: 'too-fine',
      x: at.x,
      y: at.y,
      widthMm: null,
      repairable: false,
      why: `filling specks and openings under the floor would take ${(100 * fineShare).toFixed(0)} % of the open area (FEATURES_TOO_FINE)`,
      ...borderlineOf(near(fineShare, HOUSE.fineShare, 0.02)),
    });
  }

  const stretch = strip.lengthMm / strip.widthMm / (trace.box.width / trace.box.height);
  const factor = Math.max(stretch, 1 / stretch);
  if (factor > HOUSE.keepProportion) {
    const repairable = factor <= HOUSE.maxStretch;
    defects.push({
      kind: 'proportion',
      x: strip.lengthMm / 2,
      y: strip.widthMm / 2,
      widthMm: null,
      repairable,
      why: repairable
        ? `drawn at another ratio: stretched × ${stretch.toFixed(3)} along the length (PROPORTION_MISMATCH warning)`
        : `drawn at a ratio × ${stretch.toFixed(3)} off the job's (PROPORTION_MISMATCH)`,
      ...borderlineOf(near(factor, HOUSE.keepProportion, 0.01), near(factor, HOUSE.maxStretch, 0.01)),
    });
  }

  return {
    ...labelOf(defects),
    defects,
    reference: {
      ok: report.ok,
      openings: report.openings.length,
      outlineCuts: report.outlineCuts,
      specks: specks.length,
      specksAreaMm2,
      islands: report.islands.length,
      pieces: report.pieces,
      thinMetal: report.thinMetalCount,
      narrowOpenings: report.narrowOpeningsCount,
      openAreaPct: report.openAreaPct,
      fineShare,
      stretch,
      pixelMm: trace.pixelMm,
      droppedRegions: trace.droppedRegions,
    },
  };
}

/**
 * The places whose width the checker cannot tell from the floor: under the floor plus its tolerance
 * but not flagged (it flags only under the floor less it). The service measures the file exactly,
 * and a slit drawn 0.18 mm wide is under its floor though the reference passes; such places are
 * borderline at the floor: they never decide the label, but a design whose answer they could
 * change may be answered either way.
 */
function atTheFloor(
  svg: string,
  report: CutReport,
  component: Int32Array,
  removed: Set<number>,
  found: readonly Defect[],
): Defect[] {
  const generous = checkCutSvg(svg, HOUSE.rules, { maxPlaces: Number.MAX_SAFE_INTEGER, tolMm: -report.tolMm });
  const seen = (d: Defect) => found.some((e) => Math.hypot(e.x - d.x, e.y - d.y) <= AT_FLOOR_SAME_MM);
  return [...openingDefects(generous, new Set()), ...metalDefects(generous, component, removed)]
    .filter((d) => !seen(d))
    .map((d) => ({ ...d, borderline: 'floor', why: `${d.why}; within the checker's tolerance of the floor` }));
}

/** A place found again by the generous check within this of a defect found already is that defect (mm). */
const AT_FLOOR_SAME_MM = 0.5;
