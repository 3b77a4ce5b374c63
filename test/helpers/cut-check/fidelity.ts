/**
 * Is the cut the drawing that was sent? Both are rasters of the same framed strip, so every
 * drawing pixel centre can be looked up in the cut's labelled raster.
 *
 * (i) Every drawn opening larger than the despeckle area (by more than `ambiguity`) has its own
 *     opening in the cut: the cut opening overlapping it most covers at least `coverShare` of it,
 *     unless an `OPENING_REMOVED` warning locates a place within its r + `removedSlackMm` of one
 *     of its pixels. Openings within ±`ambiguity` of the despeckle area may go either way.
 * (ii) No two drawn openings of at least the ambiguous size map to the same cut opening (a merge).
 * (iii) The cut's metal area = the drawing's metal area + the area of the drawn openings that were
 *     filled (those under the despeckle area, the excused ones, ambiguous ones without a cut
 *     opening), within a tolerance: edge error × length of the drawing's boundaries that remain,
 *     edge error = half a drawing pixel (where the traced edge may sit within the pixels the
 *     threshold chose) + 0.05 mm (smoothing and rounding in the pipeline). The boundary is counted
 *     along pixel edges, an upper bound of its length (4/π too long on a circle, √2 on a
 *     diagonal), so the default errs towards passing; every number is reported for calibration.
 */
import { labelComponents } from './labels.ts';
import { padMask } from './measure.ts';
import { airRegions } from './regions.ts';
import type { CutReport, Mask, Region } from './types.ts';

export interface ServiceWarning {
  code: string;
  locations?: { x: number; y: number; r: number }[];
}

export interface FidelityOptions {
  /** Openings of the drawing smaller than this are filled by the service. */
  despeckleAreaMm2: number;
  /** Openings within this fraction of the despeckle area either way may go either way. Default 0.1. */
  ambiguity?: number;
  /** Share of a drawn opening its cut opening must cover. Default 0.5. */
  coverShare?: number;
  /** An `OPENING_REMOVED` location excuses openings within its r plus this. Default 0.5 mm. */
  removedSlackMm?: number;
  /** Where a traced edge may sit, mm. Default half the drawing's larger pixel side + 0.05. */
  edgeErrorMm?: number;
  /** Allowed difference of metal area, mm². Default edge error × remaining boundary length. */
  metalAreaToleranceMm2?: number;
}

export type OpeningFate = 'kept' | 'filled-small' | 'ambiguous-kept' | 'ambiguous-filled' | 'excused' | 'missing';

export interface DrawnOpening extends Region {
  fate: OpeningFate;
  /** 1-based index into the cut report's `openings` of the cut opening overlapping it most, or null. */
  cutOpening: number | null;
  /** Share of the drawn opening that cut opening covers. */
  share: number;
}

export interface FidelityFailure {
  kind: 'opening-missing' | 'openings-merged' | 'metal-area';
  x: number;
  y: number;
  r: number;
  message: string;
}

export interface FidelityReport {
  ok: boolean;
  failures: FidelityFailure[];
  openings: DrawnOpening[];
  metal: {
    cutMm2: number;
    drawnMm2: number;
    filledMm2: number;
    expectedMm2: number;
    differenceMm2: number;
    toleranceMm2: number;
    boundaryLengthMm: number;
    edgeErrorMm: number;
  };
}

/** Whether the cut keeps every drawn opening apart and the drawing's metal, with every failure located in mm. */
export function checkFidelity(
  cut: CutReport,
  drawing: Mask,
  warnings: readonly ServiceWarning[],
  options: FidelityOptions,
): FidelityReport {
  const ambiguity = options.ambiguity ?? 0.1;
  const coverShare = options.coverShare ?? 0.5;
  const slack = options.removedSlackMm ?? 0.5;
  const low = options.despeckleAreaMm2 * (1 - ambiguity);
  const high = options.despeckleAreaMm2 * (1 + ambiguity);
  const grid = padMask(drawing, 1);
  const air = airRegions(grid);
  const cutLabelAt = cutLookup(cut);
  const overlaps = overlapsWithCut(grid, air.labels, air.openings.length, cutLabelAt);
  const removedAt = warnings.filter((w) => w.code === 'OPENING_REMOVED').flatMap((w) => w.locations ?? []);

  const failures: FidelityFailure[] = [];
  const openings: DrawnOpening[] = air.openings.map((region, n) => {
    const { cutOpening, share } = overlaps[n]!;
    const mapped = share >= coverShare;
    const base = { ...region, cutOpening, share };
    if (region.areaMm2 < low) return { ...base, fate: 'filled-small' };
    if (region.areaMm2 <= high) return { ...base, fate: mapped ? 'ambiguous-kept' : 'ambiguous-filled' };
    if (mapped) return { ...base, fate: 'kept' };
    if (removedAt.some((place) => nearOpening(grid, air.labels, n + 1, place, slack)))
      return { ...base, fate: 'excused' };
    const r = Math.sqrt(region.areaMm2 / Math.PI);
    const message =
      `the drawn opening of ${region.areaMm2.toFixed(3)} mm² has no opening of its own in the cut ` +
      `(best cover ${(100 * share).toFixed(0)} %) and no OPENING_REMOVED location names it`;
    failures.push({ kind: 'opening-missing', x: region.x, y: region.y, r, message });
    return { ...base, fate: 'missing' };
  });

  const byCutOpening = new Map<number, number[]>();
  openings.forEach((opening, n) => {
    if (opening.areaMm2 < low || opening.share < coverShare || opening.cutOpening === null) return;
    byCutOpening.set(opening.cutOpening, [...(byCutOpening.get(opening.cutOpening) ?? []), n]);
  });
  for (const [label, drawn] of byCutOpening) {
    if (drawn.length < 2) continue;
    const at = cut.openings[label - 1]!;
    const r = Math.max(...drawn.map((n) => Math.hypot(openings[n]!.x - at.x, openings[n]!.y - at.y)));
    const where = drawn.map((n) => `(${openings[n]!.x.toFixed(2)}, ${openings[n]!.y.toFixed(2)})`).join(', ');
    failures.push({
      kind: 'openings-merged',
      x: at.x,
      y: at.y,
      r,
      message: `one cut opening joins the drawn openings at ${where}`,
    });
  }

  const filled = new Uint8Array(air.openings.length + 1);
  openings.forEach((opening, n) => {
    if (opening.fate === 'filled-small' || opening.fate === 'ambiguous-filled' || opening.fate === 'excused')
      filled[n + 1] = 1;
  });
  const metal = metalBalance(cut, grid, air.labels, openings, filled, options);
  if (Math.abs(metal.differenceMm2) > metal.toleranceMm2) {
    const at = largestDisagreement(grid, air.labels, filled, cutLabelAt);
    const message =
      `the cut holds ${metal.cutMm2.toFixed(2)} mm² of metal, the drawing ${metal.expectedMm2.toFixed(2)} mm² ` +
      `(${metal.drawnMm2.toFixed(2)} drawn + ${metal.filledMm2.toFixed(2)} filled): ` +
      `${metal.differenceMm2.toFixed(2)} mm² apart, tolerance ${metal.toleranceMm2.toFixed(2)} mm²`;
    failures.push({ kind: 'metal-area', ...at, message });
  }
  return { ok: failures.length === 0, failures, openings, metal };
}

/** The cut's air label (-1 metal, 0 outside, n opening) at a strip position in mm. */
function cutLookup(cut: CutReport): (x: number, y: number) => number {
  const { nx, ny, pad, dx, dy, labels } = cut.grid;
  return (x, y) => {
    const i = Math.min(nx - 1, Math.max(0, Math.floor(x / dx) + pad));
    const j = Math.min(ny - 1, Math.max(0, Math.floor(y / dy) + pad));
    return labels[j * nx + i]!;
  };
}

/** For each drawn opening, the cut opening covering most of its pixel centres and the share it covers. */
function overlapsWithCut(
  grid: Mask & { pad: number },
  labels: Int32Array,
  openings: number,
  cutLabelAt: (x: number, y: number) => number,
): { cutOpening: number | null; share: number }[] {
  const counts = Array.from({ length: openings }, () => new Map<number, number>());
  const sizes = new Float64Array(openings);
  for (let j = 0; j < grid.ny; j++) {
    for (let i = 0; i < grid.nx; i++) {
      const label = labels[j * grid.nx + i]!;
      if (label < 1) continue;
      sizes[label - 1]!++;
      const cutLabel = cutLabelAt((i - grid.pad + 0.5) * grid.dx, (j - grid.pad + 0.5) * grid.dy);
      if (cutLabel < 1) continue;
      const tally = counts[label - 1]!;
      tally.set(cutLabel, (tally.get(cutLabel) ?? 0) + 1);
    }
  }
  return counts.map((tally, n) => {
    let best: number | null = null;
    let most = 0;
    for (const [cutLabel, count] of tally) {
      if (count <= most) continue;
      best = cutLabel;
      most = count;
    }
    return { cutOpening: best, share: most / sizes[n]! };
  });
}

/** Whether a warning's place lies within its r + slack of a pixel centre of drawn opening `label`. */
function nearOpening(
  grid: Mask & { pad: number },
  labels: Int32Array,
  label: number,
  place: { x: number; y: number; r: number },
  slack: number,
): boolean {
  const reach = place.r + slack;
  const i0 = Math.max(0, Math.floor((place.x - reach) / grid.dx) + grid.pad);
  const i1 = Math.min(grid.nx - 1, Math.ceil((place.x + reach) / grid.dx) + grid.pad);
  const j0 = Math.max(0, Math.floor((place.y - reach) / grid.dy) + grid.pad);
  const j1 = Math.min(grid.ny - 1, Math.ceil((place.y + reach) / grid.dy) + grid.pad);
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      if (labels[j * grid.nx + i] !== label) continue;
      const x = (i - grid.pad + 0.5) * grid.dx;
      const y = (j - grid.pad + 0.5) * grid.dy;
      if (Math.hypot(x - place.x, y - place.y) <= reach) return true;
    }
  }
  return false;
}

function metalBalance(
  cut: CutReport,
  grid: Mask & { pad: number },
  labels: Int32Array,
  openings: DrawnOpening[],
  filled: Uint8Array,
  options: FidelityOptions,
): FidelityReport['metal'] {
  const { nx, ny, pad, dx, dy, metal } = grid;
  let metalPixels = 0;
  let boundaryLengthMm = 0;
  // Only boundaries inside the strip that the cut keeps: the rectangle's own edges are exact by
  // framing, and a filled opening's area is counted exactly.
  const counts = (k: number): boolean => metal[k] === 1 || !filled[labels[k]!];
  for (let j = pad; j < ny - pad; j++) {
    for (let i = pad; i < nx - pad; i++) {
      const k = j * nx + i;
      metalPixels += metal[k]!;
      if (i + 1 < nx - pad && metal[k] !== metal[k + 1] && counts(k) && counts(k + 1)) boundaryLengthMm += dy;
      if (j + 1 < ny - pad && metal[k] !== metal[k + nx] && counts(k) && counts(k + nx)) boundaryLengthMm += dx;
    }
  }
  const drawnMm2 = metalPixels * dx * dy;
  const filledMm2 = openings.reduce((sum, opening, n) => sum + (filled[n + 1] ? opening.areaMm2 : 0), 0);
  const expectedMm2 = drawnMm2 + filledMm2;
  const edgeErrorMm = options.edgeErrorMm ?? Math.max(dx, dy) / 2 + 0.05;
  const toleranceMm2 = options.metalAreaToleranceMm2 ?? edgeErrorMm * boundaryLengthMm;
  return {
    cutMm2: cut.metalAreaMm2,
    drawnMm2,
    filledMm2,
    expectedMm2,
    differenceMm2: cut.metalAreaMm2 - expectedMm2,
    toleranceMm2,
    boundaryLengthMm,
    edgeErrorMm,
  };
}

/**
 * Where drawing (with its filled openings) and cut disagree most: the largest region, after
 * dropping pixels with a neighbour that agrees (edge slivers), where one has metal and the other air.
 */
function largestDisagreement(
  grid: Mask & { pad: number },
  labels: Int32Array,
  filled: Uint8Array,
  cutLabelAt: (x: number, y: number) => number,
): { x: number; y: number; r: number } {
  const { nx, ny, pad, dx, dy } = grid;
  const differs = new Uint8Array(nx * ny);
  for (let j = pad; j < ny - pad; j++) {
    for (let i = pad; i < nx - pad; i++) {
      const k = j * nx + i;
      const drawnMetal = grid.metal[k] === 1 || filled[labels[k]!] === 1;
      const cutMetal = cutLabelAt((i - pad + 0.5) * dx, (j - pad + 0.5) * dy) === -1;
      if (drawnMetal !== cutMetal) differs[k] = cutMetal ? 1 : 2;
    }
  }
  const core = new Uint8Array(nx * ny);
  for (let k = nx; k < nx * (ny - 1); k++) {
    const v = differs[k]!;
    if (v && differs[k - 1] === v && differs[k + 1] === v && differs[k - nx] === v && differs[k + nx] === v)
      core[k] = 1;
  }
  const { labels: parts, count } = labelComponents(core, 1, nx, ny);
  if (count === 0) return { x: grid.lengthMm / 2, y: grid.widthMm / 2, r: Math.hypot(grid.lengthMm, grid.widthMm) / 2 };
  const size = new Float64Array(count);
  const sumX = new Float64Array(count);
  const sumY = new Float64Array(count);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    if (part < 0) continue;
    const i = k % nx;
    size[part]!++;
    sumX[part]! += (i - pad + 0.5) * dx;
    sumY[part]! += ((k - i) / nx - pad + 0.5) * dy;
  }
  let best = 0;
  for (let n = 1; n < count; n++) if (size[n]! > size[best]!) best = n;
  const x = sumX[best]! / size[best]!;
  const y = sumY[best]! / size[best]!;
  // Round it all, plus the pixel the sliver filter took off each side.
  let r = 0;
  for (let k = 0; k < parts.length; k++) {
    if (parts[k] !== best) continue;
    const i = k % nx;
    const px = (i - pad + 0.5) * dx;
    const py = ((k - i) / nx - pad + 0.5) * dy;
    r = Math.max(r, Math.sqrt((px - x) ** 2 + (py - y) ** 2));
  }
  return { x, y, r: r + Math.max(dx, dy) };
}
