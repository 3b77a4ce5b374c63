/**
 * Openings narrower than `minOpeningMm` (rule 4), measured on the padded raster's air:
 * - narrow-everywhere: an opening with no erosion core (located at its widest pixel);
 * - pinched: eroding an air component splits it (located at the pinch);
 * - narrow-arm: the opening of the air loses a part reaching more than `maxOpeningTipMm`.
 * The outside air counts too, for the notches it makes in the strip: its pinches and arms inside
 * the rectangle are reported (beyond the rectangle the padding is wide open and always a core).
 *
 * Air is a small share of a strip, and every measure of an air component depends only on pixels
 * within the erosion radius of it, so each opening, and each piece of the outside air inside the
 * rectangle, is measured on its own crop: its bounding box with a margin as deep as the padding,
 * in which every pixel not of the component counts as metal.
 */
import { erodePhase, keepNarrowest, located, lostParts, splitPlaces, type RawPlace } from './narrow-places.ts';
import type { AirRegions, Box } from './regions.ts';
import type { CutRules, Grid, NarrowOpeningKind, NarrowPlace } from './types.ts';
import { localWidth } from './width-estimates.ts';

type NarrowOpening = NarrowPlace<NarrowOpeningKind>;

/** Every place where the air is narrower than `minOpeningMm − tolMm`, by kind (see the module comment). */
export function narrowOpenings(grid: Grid, air: AirRegions, rules: CutRules, tolMm: number): NarrowOpening[] {
  const everywhere: RawPlace[] = [];
  const pinches: RawPlace[] = [];
  const arms = new Map<number, RawPlace>(); // by pixel: crops of the outside may overlap
  const measure = (label: number, box: Box): void => {
    const found = measureComponent(grid, air.labels, label, box, rules, tolMm);
    everywhere.push(...found.everywhere);
    pinches.push(...found.pinches);
    for (const arm of found.arms) arms.set(arm.index, arm);
  };
  air.openingBoxes.forEach((box, n) => measure(n + 1, box));
  air.outlineBoxes.forEach((box) => measure(0, box));
  return [
    ...everywhere.map((place) => located(grid, place, 'narrow-everywhere')),
    ...keepNarrowest(grid, pinches, rules.minOpeningMm).map((place) => located(grid, place, 'pinched')),
    ...[...arms.values()].map((place) => located(grid, place, 'narrow-arm')),
  ];
}

/**
 * One air component measured on its crop; places carry grid indices. For the outside (label 0)
 * only arms inside the rectangle and within `box` count (`box` bounds one piece of it).
 */
function measureComponent(
  grid: Grid,
  labels: Int32Array,
  label: number,
  box: Box,
  rules: CutRules,
  tolMm: number,
): { everywhere: RawPlace[]; pinches: RawPlace[]; arms: RawPlace[] } {
  const { nx, ny, pad } = grid;
  const i0 = Math.max(0, box.i0 - pad);
  const j0 = Math.max(0, box.j0 - pad);
  const cw = Math.min(nx, box.i1 + pad) - i0;
  const ch = Math.min(ny, box.j1 + pad) - j0;
  const metal = new Uint8Array(cw * ch).fill(1);
  for (let j = 0; j < ch; j++) {
    const from = (j + j0) * nx + i0;
    for (let i = 0; i < cw; i++) if (labels[from + i] === label) metal[j * cw + i] = 0;
  }
  const crop: Grid = { ...grid, nx: cw, ny: ch, pad: 0, metal };
  const toGrid = (c: number): number => {
    const ci = c % cw;
    return ((c - ci) / cw + j0) * nx + i0 + ci;
  };
  const onGrid = (place: RawPlace): RawPlace => ({ ...place, index: toGrid(place.index) });

  const field = erodePhase(crop, 0, rules.minOpeningMm, tolMm);
  if (!field.core.includes(1)) {
    if (label === 0) return { everywhere: [], pinches: [], arms: [] };
    let widest = metal.indexOf(0);
    for (let c = 0; c < metal.length; c++) if (!metal[c] && field.halfWidth[c]! > field.halfWidth[widest]!) widest = c;
    const widthMm = localWidth(crop, 0, field.nearest, widest);
    return { everywhere: [{ index: toGrid(widest), widthMm, reachMm: 0 }], pinches: [], arms: [] };
  }
  const below = rules.minOpeningMm - tolMm;
  const pinches = splitPlaces(crop, field).filter((place) => place.widthMm < below);
  const counts = (c: number): boolean => {
    if (label !== 0) return true;
    const ci = c % cw;
    const i = i0 + ci;
    const j = j0 + (c - ci) / cw;
    const inside = i >= pad && i < nx - pad && j >= pad && j < ny - pad;
    return inside && i >= box.i0 && i < box.i1 && j >= box.j0 && j < box.j1;
  };
  const arms = lostParts(crop, field, rules.maxOpeningTipMm, counts);
  return { everywhere: [], pinches: pinches.map(onGrid), arms: arms.map(onGrid) };
}
