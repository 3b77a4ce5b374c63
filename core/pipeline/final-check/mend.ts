import { hasArea, twiceArea, type Ring } from './rings.ts';
import { meetingPoint, segmentsMeet } from './simplicity.ts';

/** Mending gives up after this many cuts of one ring (a ring needing more is not a tracing slip). */
const MAX_MENDS = 16;

/**
 * Makes one ring simple where tracing and rounding left it crossing itself: repeated points and
 * spikes (a segment turning straight back) are dropped, and where two segments cross, the smaller
 * of the two loops they make (a bow-tie at a cusp, a few micrometres across) is cut off at the
 * crossing. Returns the mended ring, or undefined when nothing simple with an area is left.
 */
export function mendRing(ring: Ring): Ring | undefined {
  let xs: number[] = [];
  let ys: number[] = [];
  for (let i = 0; i < ring.length; i += 2) {
    xs.push(ring[i]!);
    ys.push(ring[i + 1]!);
  }
  for (let round = 0; round < MAX_MENDS; round++) {
    [xs, ys] = withoutSpikes(xs, ys);
    if (xs.length < 3) return undefined;
    const crossing = firstCrossing(xs, ys);
    if (!crossing) {
      const mended = toRing(xs, ys);
      return hasArea(mended) ? mended : undefined;
    }
    [xs, ys] = cutSmallerLoop(xs, ys, crossing[0], crossing[1]);
  }
  return undefined;
}

/** Drops repeated points and the tips of spikes until none is left. */
function withoutSpikes(xs: number[], ys: number[]): [number[], number[]] {
  let changed = true;
  while (changed && xs.length >= 3) {
    changed = false;
    const n = xs.length;
    for (let k = 0; k < n && xs.length >= 3; k++) {
      const m = xs.length;
      const i = k % m;
      const a = (i + m - 1) % m;
      const b = (i + 1) % m;
      const ax = xs[i]! - xs[a]!;
      const ay = ys[i]! - ys[a]!;
      const bx = xs[b]! - xs[i]!;
      const by = ys[b]! - ys[i]!;
      const repeated = ax === 0 && ay === 0;
      const spike = ax * by - ay * bx === 0 && ax * bx + ay * by < 0;
      if (repeated || spike) {
        xs.splice(i, 1);
        ys.splice(i, 1);
        changed = true;
      }
    }
  }
  return [xs, ys];
}

/** The first pair of non-adjacent segments (i < j, by start index) that meet, if any. */
function firstCrossing(xs: number[], ys: number[]): [number, number] | undefined {
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    const minX = Math.min(xs[i]!, xs[i1]!);
    const maxX = Math.max(xs[i]!, xs[i1]!);
    const minY = Math.min(ys[i]!, ys[i1]!);
    const maxY = Math.max(ys[i]!, ys[i1]!);
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const j1 = (j + 1) % n;
      if (Math.max(xs[j]!, xs[j1]!) < minX || Math.min(xs[j]!, xs[j1]!) > maxX) continue;
      if (Math.max(ys[j]!, ys[j1]!) < minY || Math.min(ys[j]!, ys[j1]!) > maxY) continue;
      if (segmentsMeet(xs[i]!, ys[i]!, xs[i1]!, ys[i1]!, xs[j]!, ys[j]!, xs[j1]!, ys[j1]!)) return [i, j];
    }
  }
  return undefined;
}

/**
 * Segments i and j (i < j) meet at X: the ring is two loops, X, P[i+1..j] and X, P[j+1..i]. Keeps
 * the one with the larger area, closed through X (rounded to the file's units).
 */
function cutSmallerLoop(xs: number[], ys: number[], i: number, j: number): [number[], number[]] {
  const n = xs.length;
  const i1 = (i + 1) % n;
  const j1 = (j + 1) % n;
  const [mx, my] = meetingPoint(xs[i]!, ys[i]!, xs[i1]!, ys[i1]!, xs[j]!, ys[j]!, xs[j1]!, ys[j1]!);
  const x = Math.round(mx);
  const y = Math.round(my);
  const inner: [number[], number[]] = [[x], [y]];
  for (let k = i + 1; k <= j; k++) {
    inner[0].push(xs[k]!);
    inner[1].push(ys[k]!);
  }
  const outer: [number[], number[]] = [[x], [y]];
  for (let k = j + 1; k < n + i + 1; k++) {
    outer[0].push(xs[k % n]!);
    outer[1].push(ys[k % n]!);
  }
  const area = ([px, py]: [number[], number[]]) => Math.abs(twiceArea(toRing(px, py)));
  return area(inner) > area(outer) ? inner : outer;
}

function toRing(xs: number[], ys: number[]): Ring {
  const out = new Int32Array(xs.length * 2);
  for (let i = 0; i < xs.length; i++) {
    out[2 * i] = xs[i]!;
    out[2 * i + 1] = ys[i]!;
  }
  return out;
}
