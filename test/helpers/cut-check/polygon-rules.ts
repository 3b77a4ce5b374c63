/**
 * Simple-polygon rules checked exactly on the integer coordinates (thousandths of a millimetre):
 * no zero-length segment, no back-tracking, no fold, no self-intersection, no two rings touching
 * or crossing, every point on the strip. Orientation tests multiply coordinate differences of at most
 * a few hundred thousand, far inside the 2^53 a double holds exactly.
 *
 * Segment pairs are found with a uniform grid of cells about as many as the segments: each
 * segment is listed in the cells its bounding box covers, and a pair is tested only in the cell
 * holding the lower-left corner of the overlap of their boxes, so once.
 */
import type { Ring } from './svg-format.ts';
import type { PolygonProblem } from './types.ts';

export interface PolygonCheck {
  /** At most `maxPlaces` problems (first found first); `count` counts them all. */
  problems: PolygonProblem[];
  count: number;
}

/** Every departure from the simple-polygon rules over all rings of all paths, located in mm. */
export function checkPolygons(paths: Ring[][], lengthU: number, widthU: number, maxPlaces = 50): PolygonCheck {
  const found = new Problems(maxPlaces);
  const rings: Ring[] = [];
  for (const ring of paths.flat()) {
    for (let v = 0; v < ring.length; v += 2) {
      const x = ring[v]!;
      const y = ring[v + 1]!;
      if (x < 0 || y < 0 || x > lengthU || y > widthU) found.add('out-of-bounds', x, y);
    }
    const simple = withoutRepeats(ring, found);
    if (simple.length < 6) {
      found.add('degenerate-ring', ring[0] ?? 0, ring[1] ?? 0);
      continue;
    }
    backTracking(simple, found);
    folds(simple, found);
    rings.push(simple);
  }
  crossings(rings, found);
  return { problems: found.list, count: found.count };
}

class Problems {
  readonly list: PolygonProblem[] = [];
  count = 0;
  private readonly seen = new Set<string>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  add(kind: PolygonProblem['kind'], xU: number, yU: number): void {
    const key = `${kind} ${Math.round(xU)} ${Math.round(yU)}`;
    if (this.seen.has(key)) return; // segments meeting at one vertex report it once
    this.seen.add(key);
    this.count++;
    if (this.list.length < this.max) this.list.push({ kind, x: xU / 1000, y: yU / 1000 });
  }
}

/** The ring with consecutive equal points (also last = first) reported and dropped. */
function withoutRepeats(ring: Ring, found: Problems): Ring {
  const n = ring.length / 2;
  const kept: Ring = [];
  for (let v = 0; v < n; v++) {
    const x = ring[2 * v]!;
    const y = ring[2 * v + 1]!;
    const next = (v + 1) % n;
    if (n > 1 && x === ring[2 * next] && y === ring[2 * next + 1]) found.add('zero-length-segment', x, y);
    else kept.push(x, y);
  }
  return kept;
}

/** Two consecutive segments on one line pointing opposite ways (a spike folded back). */
function backTracking(ring: Ring, found: Problems): void {
  const n = ring.length / 2;
  for (let v = 0; v < n; v++) {
    const a = ((v + n - 1) % n) * 2;
    const b = v * 2;
    const c = ((v + 1) % n) * 2;
    const ux = ring[b]! - ring[a]!;
    const uy = ring[b + 1]! - ring[a + 1]!;
    const wx = ring[c]! - ring[b]!;
    const wy = ring[c + 1]! - ring[b + 1]!;
    if (ux * wy - uy * wx === 0 && ux * wx + uy * wy < 0) found.add('back-tracking', ring[b]!, ring[b + 1]!);
  }
}

/**
 * A fold is a Z in the contour: a segment shorter than `FOLD_MAX_U` that runs back against both its
 * neighbours (each turn onto and off it is sharper than a right angle) and turns one way onto it and
 * the other way off it, so the contour steps back on itself and carries on. A sharp tip reverses
 * once, at its point, and a tip's turns all go the same way; no drawn edge has a fold. Found exactly:
 * dot and cross products of integer differences.
 */
function folds(ring: Ring, found: Problems): void {
  const n = ring.length / 2;
  if (n < 4) return;
  for (let v = 0; v < n; v++) {
    const p = ((v + n - 1) % n) * 2;
    const a = v * 2;
    const b = ((v + 1) % n) * 2;
    const c = ((v + 2) % n) * 2;
    const mx = ring[b]! - ring[a]!;
    const my = ring[b + 1]! - ring[a + 1]!;
    if (mx * mx + my * my >= FOLD_MAX_U * FOLD_MAX_U) continue;
    const ux = ring[a]! - ring[p]!;
    const uy = ring[a + 1]! - ring[p + 1]!;
    const wx = ring[c]! - ring[b]!;
    const wy = ring[c + 1]! - ring[b + 1]!;
    const reversesOnto = ux * mx + uy * my < 0;
    const reversesOff = mx * wx + my * wy < 0;
    const turnsBothWays = (ux * my - uy * mx) * (mx * wy - my * wx) < 0;
    if (reversesOnto && reversesOff && turnsBothWays)
      found.add('fold', (ring[a]! + ring[b]!) / 2, (ring[a + 1]! + ring[b + 1]!) / 2);
  }
}

/** Folds are looked for in segments shorter than this (0.05 mm): steps of a contour, not drawn edges. */
export const FOLD_MAX_U = 50;

/** Segment pairs that touch or cross: within a ring when not adjacent, between rings always. */
function crossings(rings: Ring[], found: Problems): void {
  const total = rings.reduce((sum, ring) => sum + ring.length / 2, 0);
  if (total === 0) return;
  const ax = new Float64Array(total);
  const ay = new Float64Array(total);
  const bx = new Float64Array(total);
  const by = new Float64Array(total);
  const ringOf = new Int32Array(total);
  const indexInRing = new Int32Array(total);
  const ringSize = rings.map((ring) => ring.length / 2);
  let s = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  rings.forEach((ring, r) => {
    const n = ring.length / 2;
    for (let v = 0; v < n; v++, s++) {
      const w = (v + 1) % n;
      ax[s] = ring[2 * v]!;
      ay[s] = ring[2 * v + 1]!;
      bx[s] = ring[2 * w]!;
      by[s] = ring[2 * w + 1]!;
      ringOf[s] = r;
      indexInRing[s] = v;
      minX = Math.min(minX, ax[s]!);
      minY = Math.min(minY, ay[s]!);
      maxX = Math.max(maxX, ax[s]!);
      maxY = Math.max(maxY, ay[s]!);
    }
  });
  const cell = Math.max(1, Math.sqrt(((maxX - minX + 1) * (maxY - minY + 1)) / total));
  const columns = Math.floor((maxX - minX) / cell) + 1;
  const rows = Math.floor((maxY - minY) / cell) + 1;
  const column = (x: number): number => Math.floor((x - minX) / cell);
  const row = (y: number): number => Math.floor((y - minY) / cell);
  const visit = (each: (seg: number, c: number) => void): void => {
    for (let t = 0; t < total; t++) {
      const c0 = column(Math.min(ax[t]!, bx[t]!));
      const c1 = column(Math.max(ax[t]!, bx[t]!));
      const r0 = row(Math.min(ay[t]!, by[t]!));
      const r1 = row(Math.max(ay[t]!, by[t]!));
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) each(t, r * columns + c);
    }
  };
  const starts = new Int32Array(columns * rows + 1);
  visit((_, c) => starts[c + 1]!++);
  for (let c = 0; c < columns * rows; c++) starts[c + 1]! += starts[c]!;
  const members = new Int32Array(starts[columns * rows]!);
  const fill = starts.slice(0, columns * rows);
  visit((t, c) => (members[fill[c]!++] = t));

  for (let c = 0; c < columns * rows; c++) {
    for (let p = starts[c]!; p < starts[c + 1]!; p++) {
      for (let q = p + 1; q < starts[c + 1]!; q++) {
        const t = members[p]!;
        const u = members[q]!;
        const loX = Math.max(Math.min(ax[t]!, bx[t]!), Math.min(ax[u]!, bx[u]!));
        const loY = Math.max(Math.min(ay[t]!, by[t]!), Math.min(ay[u]!, by[u]!));
        const hiX = Math.min(Math.max(ax[t]!, bx[t]!), Math.max(ax[u]!, bx[u]!));
        const hiY = Math.min(Math.max(ay[t]!, by[t]!), Math.max(ay[u]!, by[u]!));
        if (loX > hiX || loY > hiY) continue;
        if (row(loY) * columns + column(loX) !== c) continue; // tested in another cell
        const sameRing = ringOf[t] === ringOf[u];
        if (sameRing && adjacent(indexInRing[t]!, indexInRing[u]!, ringSize[ringOf[t]!]!)) continue;
        const meeting = meet(ax[t]!, ay[t]!, bx[t]!, by[t]!, ax[u]!, ay[u]!, bx[u]!, by[u]!);
        if (!meeting) continue;
        const kind = sameRing ? 'self-intersection' : meeting.proper ? 'rings-cross' : 'rings-touch';
        found.add(kind, meeting.x, meeting.y);
      }
    }
  }
}

function adjacent(v: number, w: number, n: number): boolean {
  const gap = Math.abs(v - w);
  return gap === 1 || gap === n - 1;
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
  Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));

/** Whether p lies within the bounding box of segment ab (used once p is known to be on ab's line). */
const within = (ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean =>
  Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);

/** Where closed segments ab and cd meet (a crossing point, or a point they share), or null. */
function meet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): { x: number; y: number; proper: boolean } | null {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / ((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
    return { x: ax + t * (bx - ax), y: ay + t * (by - ay), proper: true };
  }
  if (o1 === 0 && within(ax, ay, bx, by, cx, cy)) return { x: cx, y: cy, proper: false };
  if (o2 === 0 && within(ax, ay, bx, by, dx, dy)) return { x: dx, y: dy, proper: false };
  if (o3 === 0 && within(cx, cy, dx, dy, ax, ay)) return { x: ax, y: ay, proper: false };
  if (o4 === 0 && within(cx, cy, dx, dy, bx, by)) return { x: bx, y: by, proper: false };
  return null;
}
