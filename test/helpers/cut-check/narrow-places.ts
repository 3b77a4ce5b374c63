/**
 * Erosion, splits and morphological opening of one phase of the raster (metal or air), the steps
 * `thin-metal.ts` and `narrow-openings.ts` share.
 *
 * A floor F is met where a disc of diameter F fits. Eroding by r = F/2 keeps the pixels whose
 * half-width is at least r; to let a part exactly at the floor pass despite the raster's error
 * (see `measure.ts`), the erosion radius is r − tol/2 (the tolerance is on the width, so half of it
 * on each side). The cores are what survives. Dilating the cores back by the same radius gives the
 * morphological opening; a pixel centre belongs to it when it lies within radius + half a pixel of
 * a core centre (the core pixel's own half-width counts its distance to the boundary, not to the
 * centre beyond it). What the opening loses, and how far it reaches, tells thin parts from sharp
 * convex points: a point of interior angle θ loses a part reaching r·(1/sin(θ/2) − 1).
 */
import { distanceTransform } from './distance-transform.ts';
import { reachThrough, throughIsLonger } from './reach-through.ts';
import { findSaddles } from './saddles.ts';
import type { Grid, NarrowPlace } from './types.ts';
import { centreOf, halfWidthsInPlace, localWidth, narrowestAcross, placeOf } from './width-estimates.ts';

export interface PhaseField {
  phase: 0 | 1;
  /** Half-width of every pixel of the phase, mm (0 elsewhere). */
  halfWidth: Float32Array;
  /** Index of the nearest pixel of the other phase. */
  nearest: Int32Array;
  /** 1 on the erosion cores. */
  core: Uint8Array;
  /** Erosion radius, mm. */
  radius: number;
}

/** The erosion of `phase` by (floor − tol)/2, with the half-widths and nearest other-phase pixels it came from. */
export function erodePhase(grid: Grid, phase: 0 | 1, floorMm: number, tolMm: number): PhaseField {
  const field = distanceTransform(grid.metal, 1 - phase, grid.nx, grid.ny, grid.dx, grid.dy, { nearest: true });
  const nearest = field.nearest!;
  const halfWidth = halfWidthsInPlace(grid, phase, field.sq, nearest);
  const radius = (floorMm - tolMm) / 2;
  const core = new Uint8Array(halfWidth.length);
  for (let k = 0; k < core.length; k++) if (grid.metal[k] === phase && halfWidth[k]! >= radius) core[k] = 1;
  return { phase, halfWidth, nearest, core, radius };
}

/** A place found on the raster: grid pixel, width estimate there, and (lost parts) reach. */
export interface RawPlace {
  index: number;
  widthMm: number;
  reachMm: number;
}

/**
 * Every place where two cores of one component of the phase join (its narrowest passage), with
 * the width straight across it. A join is returned when both cores rise more than half a pixel of
 * half-width above it: a pinch one pixel wide in a slot three pixels wide joins cores only a pixel
 * of half-width wider than itself, and that is all a coarse raster can show of a clear pinch,
 * while a rise of half a pixel is within the half-width's own wobble along a slanted wall (see
 * `saddles.ts`). (Along a width that hovers at the erosion threshold the cores break into
 * fragments whose joins are no pinch; their widths lie in the raster's blind band, see
 * `measure.ts`, where either answer is right.) Callers keep the joins narrower than their floor
 * less the tolerance.
 */
export function splitPlaces(grid: Grid, field: PhaseField, scratch?: Int32Array): RawPlace[] {
  const inPhase = field.phase === 1 ? grid.metal : flip(grid.metal);
  const step = Math.min(grid.dx, grid.dy) / 16;
  const minRise = Math.max(grid.dx, grid.dy) / 2;
  return findSaddles(inPhase, field.core, field.halfWidth, grid.nx, grid.ny, step, minRise, scratch).map((saddle) =>
    narrowestOfJoin(grid, field, saddle.index, step),
  );
}

/**
 * The narrowest place of the join at saddle pixel `s`. The merge tree picks any pixel of the
 * join's half-width, and a half-width is only the distance to the nearer side: beside a shallow
 * bump, a whole line of pixels as far from the opposite wall as the bump is from it shares the
 * saddle's. So the width is read across every pixel of that level (within a step of the saddle's
 * half-width, outside the cores, 4-connected to it, within the erosion diameter of it) and the
 * narrowest is the place; if no pixel of it has a gap facing across it, `localWidth` at the saddle.
 */
function narrowestOfJoin(grid: Grid, field: PhaseField, s: number, step: number): RawPlace {
  const { nx, ny, metal } = grid;
  const level = field.halfWidth[s]!;
  const reach = 2 * Math.max(field.radius, grid.dx, grid.dy);
  const from = centreOf(grid, s);
  const onLevel = (k: number): boolean => {
    if (metal[k] !== field.phase || field.core[k] || Math.abs(field.halfWidth[k]! - level) > step) return false;
    const at = centreOf(grid, k);
    return Math.hypot(at.x - from.x, at.y - from.y) <= reach;
  };
  const seen = new Set<number>([s]);
  const queue = [s];
  let best: RawPlace = { index: s, widthMm: Infinity, reachMm: 0 };
  for (let next = 0; next < queue.length; next++) {
    const k = queue[next]!;
    const widthMm = narrowestAcross(grid, field.phase, field.nearest, k);
    if (widthMm < best.widthMm) best = { index: k, widthMm, reachMm: 0 };
    const i = k % nx;
    const neighbours = [
      i > 0 ? k - 1 : -1,
      i < nx - 1 ? k + 1 : -1,
      k >= nx ? k - nx : -1,
      k < (ny - 1) * nx ? k + nx : -1,
    ];
    for (const q of neighbours) {
      if (q < 0 || seen.has(q) || !onLevel(q)) continue;
      seen.add(q);
      queue.push(q);
    }
  }
  return best.widthMm < Infinity ? best : { ...best, widthMm: localWidth(grid, field.phase, field.nearest, s) };
}

/**
 * The parts of the phase the morphological opening loses (4-connected, restricted to `where` when
 * given), each located at its pixel farthest from the opening, with that reach and the width at
 * its thickest pixel. Only parts reaching more than `minReachMm` are returned. `scratch` (nx × ny,
 * overwritten) saves an allocation.
 */
export function lostParts(
  grid: Grid,
  field: PhaseField,
  minReachMm: number,
  where?: (k: number) => boolean,
  scratch?: Int32Array,
): RawPlace[] {
  const { nx, ny } = grid;
  const toCore = distanceTransform(field.core, 1, nx, ny, grid.dx, grid.dy, { scratch }).sq;
  const reachFrom = field.radius + Math.max(grid.dx, grid.dy) / 2;
  const reachFromSq = reachFrom * reachFrom;
  // 1 = lost and not visited yet, 2 = visited.
  const lost = new Uint8Array(toCore.length);
  for (let k = 0; k < lost.length; k++) {
    if (toCore[k]! > reachFromSq && grid.metal[k] === field.phase && (!where || where(k))) lost[k] = 1;
  }
  const places: RawPlace[] = [];
  const band = Math.max(grid.dx, grid.dy);
  /** Whether a pixel is of the phase and within reach of a core: of the opening (dilated cores). */
  const kept = (q: number): boolean => grid.metal[q] === field.phase && toCore[q]! <= reachFromSq;
  // Touching at a pixel's corner counts: the apex pixel of a sharp corner may join so (see core/pipeline/raster/components.ts).
  const touchesKept = (k: number): boolean => {
    const i = k % nx;
    const j = (k - i) / nx;
    for (let b = Math.max(0, j - 1); b <= Math.min(ny - 1, j + 1); b++) {
      for (let a = Math.max(0, i - 1); a <= Math.min(nx - 1, i + 1); a++) if (kept(b * nx + a)) return true;
    }
    return false;
  };
  let part = new Int32Array(1024); // the pixels of the part being collected, in visiting order
  for (let start = 0; start < lost.length; start++) {
    if (lost[start] !== 1) continue;
    let size = 0;
    let next = 0;
    part[size++] = start;
    lost[start] = 2;
    let farthest = start;
    while (next < size) {
      const k = part[next++]!;
      if (toCore[k]! > toCore[farthest]!) farthest = k;
      if (size + 4 > part.length) {
        const grown = new Int32Array(part.length * 2);
        grown.set(part);
        part = grown;
      }
      const i = k % nx;
      const j = (k - i) / nx;
      const neighbours = [i > 0 ? k - 1 : -1, i < nx - 1 ? k + 1 : -1, j > 0 ? k - nx : -1, j < ny - 1 ? k + nx : -1];
      for (const q of neighbours) {
        if (q < 0 || lost[q] !== 1) continue;
        lost[q] = 2;
        part[size++] = q;
      }
    }
    let reachMm = Math.sqrt(toCore[farthest]!) - reachFrom;
    let at: number | undefined;
    if (reachMm <= minReachMm) {
      // Short in a straight line, perhaps only across the other phase: measured through itself,
      // and then placed at its end that way.
      const through = reachThrough(grid, part, size, touchesKept, (k) => Math.sqrt(toCore[k]!) - reachFrom);
      if (through.reachMm < Infinity && throughIsLonger(through.reachMm, reachMm)) {
        reachMm = through.reachMm;
        at = through.farthest;
      }
    }
    if (reachMm <= minReachMm) continue;
    if (at === undefined) {
      // Located at the thickest of the pixels within a pixel of the farthest reach (the middle
      // across a bar, not its side).
      const far = Math.sqrt(toCore[farthest]!) - band;
      at = farthest;
      for (let t = 0; t < size; t++) {
        const k = part[t]!;
        if (Math.sqrt(toCore[k]!) >= far && field.halfWidth[k]! > field.halfWidth[at]!) at = k;
      }
    }
    // The width is read at the thickest pixel of the whole part.
    places.push({ index: at, widthMm: partWidth(grid, field, part, size), reachMm });
  }
  return places;
}

/** A lost part's width: the width at its thickest pixel. */
function partWidth(grid: Grid, field: PhaseField, part: Int32Array, size: number): number {
  let thickest = part[0]!;
  for (let t = 1; t < size; t++) if (field.halfWidth[part[t]!]! > field.halfWidth[thickest]!) thickest = part[t]!;
  return localWidth(grid, field.phase, field.nearest, thickest);
}

/** The place with its kind, in strip millimetres. */
export function located<K extends string>(grid: Grid, place: RawPlace, kind: K): NarrowPlace<K> {
  const result: NarrowPlace<K> = { kind, ...placeOf(grid, place.index), widthMm: place.widthMm };
  if (place.reachMm > 0) result.reachMm = place.reachMm;
  return result;
}

/**
 * Of places closer than `radiusMm` to each other, the narrowest: a neck a few pixels long may
 * join its cores at more than one pixel, and it is one place.
 */
export function keepNarrowest(grid: Grid, places: RawPlace[], radiusMm: number): RawPlace[] {
  const kept: RawPlace[] = [];
  for (const place of [...places].sort((a, b) => a.widthMm - b.widthMm)) {
    const at = centreOf(grid, place.index);
    const near = kept.some((other) => {
      const o = centreOf(grid, other.index);
      return Math.hypot(o.x - at.x, o.y - at.y) < radiusMm;
    });
    if (!near) kept.push(place);
  }
  return kept;
}

function flip(values: Uint8Array): Uint8Array {
  const flipped = new Uint8Array(values.length);
  for (let k = 0; k < values.length; k++) flipped[k] = 1 - values[k]!;
  return flipped;
}
