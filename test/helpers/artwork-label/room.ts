/**
 * Is there room to widen thin metal? Tried on the checker's raster of the faithful file, near the
 * place only, with distance transforms of our own: the metal of width w is widened to
 * `widenToMm` by moving its walls into the air beside it, half the missing width from each side
 * (all of it from one side when the other is the strip's edge, which cannot move), all along the
 * place's thin stretch (the part of the metal a disc of the metal floor does not reach that lies
 * nearest it). The air a disc as wide as the opening floor could cut
 * before and can no longer cut after, other than what became metal, is what widening spoils.
 * A spoiled patch smaller than a corner (`maxOpeningTipMm` across: where the moved wall meets
 * the old one, or where a tip pointing at the place got shorter, which the laser rounds anyway)
 * is no loss; a longer one is an opening squeezed under the floor: no room.
 */
import { distanceTransform } from '../cut-check/distance-transform.ts';
import { labelComponents } from '../cut-check/labels.ts';
import type { LabelledGrid } from '../cut-check/types.ts';
import { HOUSE } from './house-rules.ts';

/** Air label on the checker's raster: n ≥ 1 an opening, 0 the air round the piece inside the strip, -2 the strip's edge. */
export type Air = number;
export const EDGE: Air = -2;

export interface Room {
  /** The air on the two sides of the place (the same twice when it has one kind of air round it). */
  sides: Air[];
  /** How far each movable wall moves, mm. */
  shiftMm: number;
  /** The largest patch of opening the widening spoils, mm across (0 when none). */
  spoiledMm: number;
  fits: boolean;
  /** Whether the answer changes within the checker's tolerance on the floor. */
  borderline: boolean;
}

/** Where the air is beside a thin place of width `widthMm`, and whether widening it keeps the openings cuttable. */
export function roomToWiden(grid: LabelledGrid, place: { x: number; y: number; widthMm: number }, tolMm: number): Room {
  const { nx, ny, pad, dx, dy, labels } = grid;
  const rho = Math.max(dx, dy);
  const w = Math.max(0, place.widthMm);
  const missing = Math.max(0, HOUSE.widenToMm - w);
  const floor = HOUSE.rules.minOpeningMm;
  const moved = w / 2 + missing + rho; // the walls move no farther than this from the place
  const crop = moved + 2 * floor + HOUSE.rules.maxOpeningTipMm + HOUSE.rules.minMetalMm + 4 * rho;
  const ci = Math.floor(place.x / dx) + pad;
  const cj = Math.floor(place.y / dy) + pad;
  const i0 = Math.max(0, ci - Math.ceil(crop / dx));
  const j0 = Math.max(0, cj - Math.ceil(crop / dy));
  const cw = Math.min(nx, ci + Math.ceil(crop / dx) + 1) - i0;
  const ch = Math.min(ny, cj + Math.ceil(crop / dy) + 1) - j0;
  const metal = new Uint8Array(cw * ch);
  const air = new Int32Array(cw * ch);
  const distance = new Float64Array(cw * ch);
  const px = place.x + pad * dx;
  const py = place.y + pad * dy;
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      const gi = i + i0;
      const gj = j + j0;
      const label = labels[gj * nx + gi]!;
      const k = j * cw + i;
      metal[k] = label < 0 ? 1 : 0;
      air[k] = label === 0 && (gi < pad || gj < pad || gi >= nx - pad || gj >= ny - pad) ? EDGE : label;
      distance[k] = Math.hypot((gi + 0.5) * dx - px, (gj + 0.5) * dy - py);
    }
  }

  const sides = sidesOf(metal, air, distance, w / 2 + 3 * rho, moved, 2 * rho);
  const movable = sides.filter((side) => side !== EDGE).length;
  if (movable === 0) return { sides, shiftMm: 0, spoiledMm: Infinity, fits: false, borderline: false };
  const shift = sides.includes(EDGE) ? missing : missing / 2;

  // The widened metal: the air within the shift of the thin metal (what a disc of the metal floor
  // does not reach), along the whole thin stretch in the crop, never beyond the strip's edge.
  const thin = thinStretch(metal, distance, cw, ch, dx, dy, (HOUSE.rules.minMetalMm - tolMm) / 2);
  const toThin = distanceTransform(thin, 1, cw, ch, dx, dy).sq;
  const widened = metal.slice();
  for (let k = 0; k < widened.length; k++) {
    if (!metal[k] && air[k] !== EDGE && Math.sqrt(toThin[k]!) - rho / 2 <= shift) widened[k] = 1;
  }
  const spoiled = (radius: number): number => {
    const before = cuttable(metal, cw, ch, dx, dy, radius);
    const after = cuttable(widened, cw, ch, dx, dy, radius);
    const lost = new Uint8Array(cw * ch);
    for (let k = 0; k < lost.length; k++) if (before[k] && !after[k] && !widened[k]) lost[k] = 1;
    return largestExtent(lost, cw, ch, dx, dy);
  };
  // The checker cuts with a disc of floor − tol; a disc of floor − 2·tol or of the floor itself
  // giving another answer makes it too close to call.
  const allowed = HOUSE.rules.maxOpeningTipMm;
  const spoiledMm = spoiled((floor - tolMm) / 2);
  const fits = spoiledMm <= allowed;
  const loose = spoiled((floor - 2 * tolMm) / 2) <= allowed;
  const strict = spoiled(floor / 2) <= allowed;
  return { sides, shiftMm: shift, spoiledMm, fits, borderline: loose !== fits || strict !== fits };
}

/** The kinds of air nearest the place (at most two), searched outwards ring by ring. */
function sidesOf(
  metal: Uint8Array,
  air: Int32Array,
  distance: Float64Array,
  from: number,
  to: number,
  step: number,
): Air[] {
  const nearest = new Map<Air, number>();
  for (let within = from; nearest.size === 0 && within <= to + step; within += step) {
    for (let k = 0; k < metal.length; k++) {
      if (metal[k] || distance[k]! > within) continue;
      nearest.set(air[k]!, Math.min(distance[k]!, nearest.get(air[k]!) ?? Infinity));
    }
  }
  const kinds = [...nearest].sort((a, b) => a[1] - b[1]).map(([kind]) => kind);
  // One kind of air only: the same air on both sides (a bar's stub, a spur).
  return kinds.length === 1 ? [kinds[0]!, kinds[0]!] : kinds.slice(0, 2);
}

const invert = (values: Uint8Array): Uint8Array => values.map((v) => 1 - v);

/**
 * The thin stretch of the place: the 8-connected part of the metal a disc of `radius` does not
 * reach that lies nearest the place. Other thin places nearby are widened by their own amounts,
 * not by this one's.
 */
function thinStretch(
  metal: Uint8Array,
  distance: Float64Array,
  nx: number,
  ny: number,
  dx: number,
  dy: number,
  radius: number,
): Uint8Array {
  const solid = cuttable(invert(metal), nx, ny, dx, dy, radius);
  const thin = new Uint8Array(metal.length);
  for (let k = 0; k < thin.length; k++) if (metal[k] && !solid[k]) thin[k] = 1;
  const { labels } = labelComponents(thin, 1, nx, ny, 8);
  let nearest = -1;
  for (let k = 0; k < thin.length; k++) if (thin[k] && (nearest < 0 || distance[k]! < distance[nearest]!)) nearest = k;
  if (nearest < 0) return thin;
  const part = labels[nearest]!;
  for (let k = 0; k < thin.length; k++) thin[k] = labels[k] === part ? 1 : 0;
  return thin;
}

/** 1 on the air a disc of `radius` reaches while staying in the air (the air's morphological opening). */
function cuttable(metal: Uint8Array, nx: number, ny: number, dx: number, dy: number, radius: number): Uint8Array {
  const rho = Math.max(dx, dy);
  const toMetal = distanceTransform(metal, 1, nx, ny, dx, dy).sq;
  const centres = new Uint8Array(metal.length);
  for (let k = 0; k < centres.length; k++) if (!metal[k] && Math.sqrt(toMetal[k]!) - rho / 2 >= radius) centres[k] = 1;
  const toCentre = distanceTransform(centres, 1, nx, ny, dx, dy).sq;
  const reach = (radius + rho / 2) ** 2;
  const out = new Uint8Array(metal.length);
  for (let k = 0; k < out.length; k++) if (!metal[k] && toCentre[k]! <= reach) out[k] = 1;
  return out;
}

/** The largest 4-connected patch of `mask`, measured across its bounding box, mm (0 when none). */
function largestExtent(mask: Uint8Array, nx: number, ny: number, dx: number, dy: number): number {
  const { labels, count } = labelComponents(mask, 1, nx, ny, 4);
  if (count === 0) return 0;
  const box = Array.from({ length: count }, () => [nx, ny, -1, -1]);
  for (let k = 0; k < labels.length; k++) {
    const c = labels[k]!;
    if (c < 0) continue;
    const i = k % nx;
    const j = (k - i) / nx;
    const b = box[c]!;
    b[0] = Math.min(b[0]!, i);
    b[1] = Math.min(b[1]!, j);
    b[2] = Math.max(b[2]!, i);
    b[3] = Math.max(b[3]!, j);
  }
  return Math.max(...box.map(([i0, j0, i1, j1]) => Math.hypot((i1! - i0! + 1) * dx, (j1! - j0! + 1) * dy)));
}
