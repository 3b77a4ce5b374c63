/**
 * Is the cut the drawing, changed only where a warning says so? Every drawing pixel centre is
 * looked up in the cut: where one is metal and the other air, the drawing was changed there.
 * Differences are forgiven where they are only edge placement (the cut holds the drawn material
 * within `edgeErrorMm` of the pixel's edge), inside a drawn opening the fidelity check found filled
 * (specks, or excused by OPENING_REMOVED), or a sliver of drawn air narrower than the opening floor
 * filled in (a sharp corner or tip of an opening, which the laser cannot cut, spanning at most
 * 1.5 mm; along the strip's outline, any length). Every other connected change must lie within a
 * location (its r plus `slackMm`) of a warning that names a change: OPENING_REMOVED, ISLAND_BRIDGED,
 * ISLAND_REMOVED, SPURS_SHAVED, NECK_THICKENED.
 */
import { distanceTransform } from './distance-transform.ts';
import { checkFidelity, type FidelityOptions, type FidelityReport, type ServiceWarning } from './fidelity.ts';
import { labelComponents } from './labels.ts';
import { airRegions } from './regions.ts';
import { padMask } from './measure.ts';
import type { CutReport, CutRules, Mask } from './types.ts';

export interface ChangeOptions {
  /** Where a traced edge may sit, mm. Default half the drawing's larger pixel side + 0.05. */
  edgeErrorMm?: number;
  /** A warning's location covers a change within its r plus this, mm. Default 0.5. */
  slackMm?: number;
  /** Changes smaller than this are not counted, mm². Default 0.01. */
  minAreaMm2?: number;
  /**
   * The most locations the service lists on one finding: a change warning listing that many may
   * have more places than it shows, and then covers changes anywhere. Default Infinity.
   */
  locationCap?: number;
}

export interface UnwarnedChange {
  /** `filled`: drawn air became metal; `cut`: drawn metal became air. */
  kind: 'filled' | 'cut';
  x: number;
  y: number;
  areaMm2: number;
  /** How far the change reaches from the drawing's boundary, mm. */
  depthMm: number;
}

/** The most a filled sharp corner of an opening spans (see `unwarnedChanges`), mm. */
const CORNER_EXTENT_MM = 1.5;

const CHANGE_CODES = new Set(['OPENING_REMOVED', 'ISLAND_BRIDGED', 'ISLAND_REMOVED', 'SPURS_SHAVED', 'NECK_THICKENED']);

/** Every change of the cut from the drawing that no warning accounts for, located in mm. */
export function unwarnedChanges(
  cut: CutReport,
  drawing: Mask,
  warnings: readonly ServiceWarning[],
  fidelity: FidelityReport,
  rules: CutRules,
  options: ChangeOptions = {},
): UnwarnedChange[] {
  const { nx, ny, dx, dy, metal } = drawing;
  const edgeError = options.edgeErrorMm ?? Math.max(dx, dy) / 2 + 0.05;
  const slack = options.slackMm ?? 0.5;
  const minArea = options.minAreaMm2 ?? 0.01;
  const cutMetalAt = cutMetalLookup(cut);

  // The drawn openings the fidelity check found filled: changes inside them are accounted for.
  const grid = padMask(drawing, 1);
  const air = airRegions(grid);
  const filledOpening = new Uint8Array(fidelity.openings.length + 1);
  fidelity.openings.forEach((o, n) => {
    if (o.fate === 'filled-small' || o.fate === 'ambiguous-filled' || o.fate === 'excused') filledOpening[n + 1] = 1;
  });

  const boundary = new Uint8Array(nx * ny);
  const changed = new Uint8Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      const m = metal[k]!;
      if (
        (i > 0 && metal[k - 1] !== m) ||
        (i < nx - 1 && metal[k + 1] !== m) ||
        (j > 0 && metal[k - nx] !== m) ||
        (j < ny - 1 && metal[k + nx] !== m)
      ) {
        boundary[k] = 1;
      }
      const drawnMetal = m === 1;
      if (drawnMetal === cutMetalAt((i + 0.5) * dx, (j + 0.5) * dy)) continue;
      const opening = air.labels[(j + 1) * grid.nx + i + 1]!;
      if (!drawnMetal && opening > 0 && filledOpening[opening]) continue;
      changed[k] = 1;
    }
  }
  const toBoundary = distanceTransform(boundary, 1, nx, ny, dx, dy).sq;
  // Edge placement: the cut holds the drawn material within the edge error of the pixel's edge
  // (half a pixel from its centre), so its edge only moved. (Not "within the edge error of the
  // drawn edge": a drawn part a pixel or two wide lies wholly there, and would vanish unseen.)
  const reach = edgeError + Math.max(dx, dy) / 2;
  const around = [1, 0.5].flatMap((f) =>
    Array.from({ length: 16 }, (_, t) => [
      f * reach * Math.cos((t * Math.PI) / 8),
      f * reach * Math.sin((t * Math.PI) / 8),
    ]),
  );
  // Drawn air filled within a floor's half-width (plus the edge error) of the cut's air is a band
  // along an opening that is still there; a filled arm is far from any cut air but at its root.
  const band = rules.minOpeningMm / 2 + reach;
  const aroundBand = around.map(([ox, oy]) => [(ox! * band) / reach, (oy! * band) / reach]);
  const offBand = new Uint8Array(nx * ny);
  for (let k = 0; k < changed.length; k++) {
    if (!changed[k]) continue;
    const x = ((k % nx) + 0.5) * dx;
    const y = (Math.floor(k / nx) + 0.5) * dy;
    const drawnMetal = metal[k] === 1;
    if (around.some(([ox, oy]) => cutMetalAt(x + ox!, y + oy!) === drawnMetal)) changed[k] = 0;
    else if (!drawnMetal && !aroundBand.some(([ox, oy]) => !cutMetalAt(x + ox!, y + oy!))) offBand[k] = 1;
  }

  const changeWarnings = warnings.filter((w) => CHANGE_CODES.has(w.code));
  if (changeWarnings.some((w) => (w.locations?.length ?? 0) >= (options.locationCap ?? Infinity))) return [];
  const places = changeWarnings
    .flatMap((w) => w.locations ?? [])
    .map((p) => ({ x: p.x, y: p.y, reach2: (p.r + slack) ** 2 }));
  const { labels, count } = labelComponents(changed, 1, nx, ny, 8);
  const stats = Array.from({ length: count }, () => ({
    n: 0,
    sx: 0,
    sy: 0,
    depth2: 0,
    filled: false,
    inOpening: false,
    offBand: false,
    warned: false,
    box: [Infinity, Infinity, -Infinity, -Infinity],
  }));
  for (let k = 0; k < labels.length; k++) {
    const c = labels[k]!;
    if (c < 0) continue;
    const s = stats[c]!;
    const x = ((k % nx) + 0.5) * dx;
    const y = (Math.floor(k / nx) + 0.5) * dy;
    s.n++;
    s.sx += x;
    s.sy += y;
    s.box = [Math.min(s.box[0]!, x), Math.min(s.box[1]!, y), Math.max(s.box[2]!, x), Math.max(s.box[3]!, y)];
    s.depth2 = Math.max(s.depth2, toBoundary[k]!);
    if (offBand[k]) s.offBand = true;
    if (metal[k] === 0) {
      s.filled = true;
      if (air.labels[(Math.floor(k / nx) + 1) * grid.nx + (k % nx) + 1]! > 0) s.inOpening = true;
    }
    if (!s.warned) s.warned = places.some((p) => (p.x - x) ** 2 + (p.y - y) ** 2 <= p.reach2);
  }
  const out: UnwarnedChange[] = [];
  for (const s of stats) {
    const areaMm2 = s.n * dx * dy;
    const depthMm = Math.sqrt(s.depth2);
    if (s.warned || areaMm2 < minArea) continue;
    // A sliver of air narrower than the opening floor is filled: the laser cannot cut it. In an
    // opening that is a sharp corner, so short (the part of even a 10° corner narrower than the
    // floor spans little more than a millimetre), or a band along the opening's cut edge. A longer
    // one away from the cut's air is a narrow arm drawn so.
    const extentMm = Math.hypot(s.box[2]! - s.box[0]! + dx, s.box[3]! - s.box[1]! + dy);
    const corner = !s.inOpening || extentMm <= CORNER_EXTENT_MM || !s.offBand;
    if (s.filled && corner && depthMm <= rules.minOpeningMm / 2 + edgeError) continue;
    out.push({ kind: s.filled ? 'filled' : 'cut', x: s.sx / s.n, y: s.sy / s.n, areaMm2, depthMm });
  }
  return out;
}

/** Whether the cut is metal at a strip position in mm. */
function cutMetalLookup(cut: CutReport): (x: number, y: number) => boolean {
  const { nx, ny, pad, dx, dy, labels } = cut.grid;
  return (x, y) => {
    const i = Math.min(nx - 1, Math.max(0, Math.floor(x / dx) + pad));
    const j = Math.min(ny - 1, Math.max(0, Math.floor(y / dy) + pad));
    return labels[j * nx + i]! < 0;
  };
}

export interface Faithfulness {
  ok: boolean;
  /** Located failures: a drawn opening lost or merged, metal area off (when nothing was changed on purpose), or a change no warning names. */
  failures: { kind: string; x: number; y: number; message: string }[];
  fidelity: FidelityReport;
}

/**
 * The fidelity rules as the service promises them: every drawn opening at or above the despeckle
 * area has its own opening in the cut (one a warned change made smaller still counts), none merged,
 * the metal area within its tolerance when no warning names a change, and no change anywhere that
 * no warning names (`unwarnedChanges`).
 */
export function faithfulness(
  cut: CutReport,
  drawing: Mask,
  warnings: readonly ServiceWarning[],
  rules: CutRules,
  options: FidelityOptions & ChangeOptions,
): Faithfulness {
  const fidelity = checkFidelity(cut, drawing, warnings, options);
  const slack = options.slackMm ?? 0.5;
  const changeWarnings = warnings.filter((w) => CHANGE_CODES.has(w.code));
  const capped = changeWarnings.some((w) => (w.locations?.length ?? 0) >= (options.locationCap ?? Infinity));
  const changePlaces = changeWarnings.flatMap((w) => w.locations ?? []);
  const claimed = new Map<number, number>();
  for (const o of fidelity.openings)
    if (o.cutOpening !== null) claimed.set(o.cutOpening, (claimed.get(o.cutOpening) ?? 0) + 1);
  const failures: Faithfulness['failures'] = [];
  for (const f of fidelity.failures) {
    if (f.kind === 'metal-area' && changePlaces.length > 0) continue;
    if (f.kind === 'opening-missing') {
      const drawn = fidelity.openings.find((o) => o.x === f.x && o.y === f.y);
      const shrunk = drawn?.cutOpening != null && drawn.share > 0 && claimed.get(drawn.cutOpening) === 1;
      const warned = capped || changePlaces.some((p) => Math.hypot(p.x - f.x, p.y - f.y) <= p.r + f.r + slack);
      if (shrunk && warned) continue;
    }
    failures.push({ kind: f.kind, x: f.x, y: f.y, message: f.message });
  }
  for (const c of unwarnedChanges(cut, drawing, warnings, fidelity, rules, options)) {
    failures.push({
      kind: `unwarned-${c.kind}`,
      x: c.x,
      y: c.y,
      message: `${c.kind === 'filled' ? 'drawn air filled' : 'drawn metal cut away'}: ${c.areaMm2.toFixed(3)} mm², reaching ${c.depthMm.toFixed(2)} mm from the drawn edge, where no warning names a change`,
    });
  }
  return { ok: failures.length === 0, failures, fidelity };
}
