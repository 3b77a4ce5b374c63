import type { Point } from './cuts.ts';

function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Marks the points of ring[from..to] (indices mod n) that Douglas–Peucker keeps. */
function markKept(ring: readonly Point[], from: number, to: number, tolerance: number, keep: Uint8Array): void {
  const n = ring.length;
  // An explicit stack: a long, nearly straight run would otherwise recurse once per point.
  const stack: [number, number][] = [[from, to]];
  for (let span = stack.pop(); span; span = stack.pop()) {
    const [i, j] = span;
    const a = ring[i % n]!;
    const b = ring[j % n]!;
    let worst = -1;
    let worstAt = -1;
    for (let k = i + 1; k < j; k++) {
      const d = segmentDistance(ring[k % n]!, a, b);
      if (d > worst) [worst, worstAt] = [d, k];
    }
    if (worst > tolerance) {
      keep[worstAt % n] = 1;
      stack.push([i, worstAt], [worstAt, j]);
    }
  }
}

/**
 * Douglas–Peucker on a closed ring (last point not repeated): every dropped point lies within
 * `tolerance` of the simplified ring. The ring is split at its first point and the point farthest
 * from it, which both stay.
 */
export function simplifyRing(ring: readonly Point[], tolerance: number): Point[] {
  const n = ring.length;
  if (n <= 3) return ring.slice();
  const first = ring[0]!;
  let far = 1;
  for (let k = 2; k < n; k++) {
    const p = ring[k]!;
    const q = ring[far]!;
    if (Math.hypot(p[0] - first[0], p[1] - first[1]) > Math.hypot(q[0] - first[0], q[1] - first[1])) far = k;
  }
  const keep = new Uint8Array(n);
  keep[0] = keep[far] = 1;
  markKept(ring, 0, far, tolerance, keep);
  markKept(ring, far, n, tolerance, keep);
  return ring.filter((_, k) => keep[k]);
}
