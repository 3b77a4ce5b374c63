import type { Point } from './cuts.ts';

/** Shoelace area of a closed ring (last point not repeated): positive when x turns towards y. */
export function ringArea(ring: readonly Point[]): number {
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    twice += a[0] * b[1] - b[0] * a[1];
  }
  return twice / 2;
}

type Side = (p: Point) => boolean;
type Cross = (a: Point, b: Point) => Point;

function clipHalfPlane(ring: readonly Point[], inside: Side, cross: Cross): Point[] {
  const out: Point[] = [];
  let prev = ring[ring.length - 1];
  if (!prev) return out;
  let prevIn = inside(prev);
  for (const cur of ring) {
    const curIn = inside(cur);
    if (curIn !== prevIn) out.push(cross(prev, cur));
    if (curIn) out.push(cur);
    prev = cur;
    prevIn = curIn;
  }
  return out;
}

// Crossings take the boundary value itself, so clipped points lie on the edge exactly.
const atX =
  (c: number): Cross =>
  (a, b) => [c, a[1] + ((c - a[0]) / (b[0] - a[0])) * (b[1] - a[1])];
const atY =
  (c: number): Cross =>
  (a, b) => [a[0] + ((c - a[1]) / (b[1] - a[1])) * (b[0] - a[0]), c];

/**
 * Clips a closed ring to the rectangle 0..maxX × 0..maxY (Sutherland–Hodgman). Where the ring
 * left the rectangle, the result runs along its edge, with coordinates exactly 0, maxX or maxY.
 * A ring that left through one side and came back through another in two separate places would
 * be joined along the edge; callers clip only rings whose outside parts are simple excursions.
 */
export function clipRingToRect(ring: readonly Point[], maxX: number, maxY: number): Point[] {
  let out = clipHalfPlane(ring, (p) => p[0] >= 0, atX(0));
  out = clipHalfPlane(out, (p) => p[0] <= maxX, atX(maxX));
  out = clipHalfPlane(out, (p) => p[1] >= 0, atY(0));
  return clipHalfPlane(out, (p) => p[1] <= maxY, atY(maxY));
}

/** True when every point of the ring lies in 0..maxX × 0..maxY. */
export function ringInsideRect(ring: readonly Point[], maxX: number, maxY: number): boolean {
  for (const [x, y] of ring) if (x < 0 || y < 0 || x > maxX || y > maxY) return false;
  return true;
}
