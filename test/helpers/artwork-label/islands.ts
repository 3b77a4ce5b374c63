/**
 * The metal of the faithful file apart from the piece: pieces cut loose (touching the air round
 * the piece) and islands (metal inside an opening), each judged by the house's island rules: within
 * `bridgeReachMm` of other metal it is bridged when a `bridgeWidthMm` bar along the shortest gap
 * leaves the opening at least the floor on both sides of it; farther away it is removed when at
 * most `removableIslandMm2`; otherwise it is refused.
 */
import { distanceTransform } from '../cut-check/distance-transform.ts';
import { labelComponents } from '../cut-check/labels.ts';
import type { LabelledGrid } from '../cut-check/types.ts';
import { borderlineOf, HOUSE, near, type Defect } from './house-rules.ts';

export interface MetalParts {
  /** Each metal pixel's 4-connected component on the checker's raster (-1 off the metal). */
  component: Int32Array;
  /** Components that go with the repair (small islands removed): thin metal on them does not count. */
  removed: Set<number>;
  defects: Defect[];
}

interface Part {
  pixels: number;
  sx: number;
  sy: number;
  box: [number, number, number, number];
  touchesOutside: boolean;
}

/** The islands and loose pieces of the faithful file, with the house's verdict on each. */
export function judgeMetalParts(grid: LabelledGrid, tolMm: number): MetalParts {
  const { nx, ny, dx, dy, pad, labels } = grid;
  const { labels: component, count } = labelComponents(grid.metal, 1, nx, ny, 4);
  const parts: Part[] = Array.from({ length: count }, () => ({
    pixels: 0,
    sx: 0,
    sy: 0,
    box: [nx, ny, -1, -1],
    touchesOutside: false,
  }));
  for (let k = 0; k < component.length; k++) {
    const c = component[k]!;
    if (c < 0) continue;
    const part = parts[c]!;
    const i = k % nx;
    const j = (k - i) / nx;
    part.pixels++;
    part.sx += i;
    part.sy += j;
    part.box = [Math.min(part.box[0], i), Math.min(part.box[1], j), Math.max(part.box[2], i), Math.max(part.box[3], j)];
    if (labels[k - 1] === 0 || labels[k + 1] === 0 || labels[k - nx] === 0 || labels[k + nx] === 0)
      part.touchesOutside = true;
  }
  let piece = 0;
  for (let c = 1; c < count; c++) if (parts[c]!.pixels > parts[piece]!.pixels) piece = c;
  const removed = new Set<number>();
  const defects: Defect[] = [];
  parts.forEach((part, c) => {
    if (c === piece) return;
    const x = (part.sx / part.pixels - pad + 0.5) * dx;
    const y = (part.sy / part.pixels - pad + 0.5) * dy;
    const areaMm2 = part.pixels * dx * dy;
    if (part.touchesOutside) {
      defects.push({
        kind: 'pieces',
        x,
        y,
        widthMm: null,
        repairable: false,
        why: `a piece of ${areaMm2.toFixed(2)} mm² apart from the rest: the strip falls apart (MATERIAL_DISCONNECTED)`,
      });
      return;
    }
    const verdict = judgeIsland(grid, component, c, part, tolMm);
    if (verdict.removed) removed.add(c);
    defects.push({ kind: 'island', x, y, widthMm: null, ...verdict.defect });
  });
  return { component, removed, defects };
}

function judgeIsland(
  grid: LabelledGrid,
  component: Int32Array,
  c: number,
  part: Part,
  tolMm: number,
): { removed: boolean; defect: Pick<Defect, 'repairable' | 'why' | 'borderline'> } {
  const { nx, ny, dx, dy } = grid;
  const rho = Math.max(dx, dy);
  const areaMm2 = part.pixels * dx * dy;
  const margin = HOUSE.bridgeReachMm + 1;
  const i0 = Math.max(0, part.box[0] - Math.ceil(margin / dx));
  const j0 = Math.max(0, part.box[1] - Math.ceil(margin / dy));
  const cw = Math.min(nx, part.box[2] + Math.ceil(margin / dx) + 1) - i0;
  const ch = Math.min(ny, part.box[3] + Math.ceil(margin / dy) + 1) - j0;
  const other = new Uint8Array(cw * ch);
  const metal = new Uint8Array(cw * ch);
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const k = (j + j0) * nx + i + i0;
      metal[j * cw + i] = grid.metal[k]!;
      other[j * cw + i] = grid.metal[k] && component[k] !== c ? 1 : 0;
    }
  }
  const toOther = distanceTransform(other, 1, cw, ch, dx, dy, { nearest: true });
  let from = -1;
  for (let k = 0; k < other.length; k++) {
    if (!metal[k] || other[k]) continue;
    if (from < 0 || toOther.sq[k]! < toOther.sq[from]!) from = k;
  }
  // Centre to centre, less a pixel: each boundary lies half a pixel from its pixel's centre.
  const gapMm = Math.sqrt(toOther.sq[from]!) - rho;
  const flag = borderlineOf(
    false,
    near(gapMm, HOUSE.bridgeReachMm, tolMm) || near(areaMm2, HOUSE.removableIslandMm2, 0.03),
  );
  const size = `${areaMm2.toFixed(2)} mm², ${gapMm.toFixed(2)} mm from other metal`;
  if (gapMm > HOUSE.bridgeReachMm) {
    if (areaMm2 <= HOUSE.removableIslandMm2)
      return {
        removed: true,
        defect: { repairable: true, why: `${size}: out of reach, small, removed (ISLAND_REMOVED)`, ...flag },
      };
    return {
      removed: false,
      defect: { repairable: false, why: `${size}: out of reach and too large to remove (TRAPPED_ISLAND)`, ...flag },
    };
  }
  const to = toOther.nearest![from]!;
  const tight = tightBeside(metal, cw, ch, dx, dy, from, to, tolMm);
  if (tight === null)
    return { removed: false, defect: { repairable: true, why: `${size}: bridged (ISLAND_BRIDGED)`, ...flag } };
  return {
    removed: false,
    defect: {
      repairable: false,
      why: `${size}: a ${HOUSE.bridgeWidthMm} mm bridge would leave ${tight.toFixed(2)} mm of opening beside it (TRAPPED_ISLAND)`,
      ...flag,
    },
  };
}

/**
 * The narrowest opening a bridge from crop pixel `from` to `to` leaves beside it, or null when it
 * leaves at least the floor: a disc as wide as the floor is tried against each side of the bar
 * along its length, away from its two ends (where its corners with the walls are, which the laser
 * rounds anyway).
 */
function tightBeside(
  metal: Uint8Array,
  cw: number,
  ch: number,
  dx: number,
  dy: number,
  from: number,
  to: number,
  tolMm: number,
): number | null {
  const rho = Math.max(dx, dy);
  const toMetal = distanceTransform(metal, 1, cw, ch, dx, dy).sq;
  const ax = ((from % cw) + 0.5) * dx;
  const ay = (Math.floor(from / cw) + 0.5) * dy;
  const bx = ((to % cw) + 0.5) * dx;
  const by = (Math.floor(to / cw) + 0.5) * dy;
  const length = Math.hypot(bx - ax, by - ay);
  const half = HOUSE.rules.minOpeningMm / 2;
  const offset = HOUSE.bridgeWidthMm / 2 + half;
  if (length <= 2 * offset) return null;
  const ux = (bx - ax) / length;
  const uy = (by - ay) / length;
  let narrowest = Infinity;
  for (let t = offset; t <= length - offset; t += rho) {
    for (const sign of [-1, 1]) {
      const x = ax + ux * t - sign * uy * offset;
      const y = ay + uy * t + sign * ux * offset;
      const i = Math.floor(x / dx);
      const j = Math.floor(y / dy);
      if (i < 0 || j < 0 || i >= cw || j >= ch) continue;
      const k = j * cw + i;
      if (metal[k]) continue;
      // The opening between the bar's side and the nearest metal beyond it.
      narrowest = Math.min(narrowest, Math.sqrt(toMetal[k]!) - rho / 2 + half);
    }
  }
  return narrowest < HOUSE.rules.minOpeningMm - tolMm ? narrowest : null;
}
