import type { Point } from './cuts.ts';
import type { PotraceCurve, PotracePoint } from '../potrace/paths.ts';

/** Maps traced pixel corners to millimetres: `x_mm = (x - ox) * sx`, `y_mm = (y - oy) * sy`. */
export interface PixelToMm {
  sx: number;
  sy: number;
  ox: number;
  oy: number;
}

/**
 * How a cubic is cut into pieces. Plain chords sit on the concave side of the curve, so every
 * opening would come out a little small; instead each inner vertex is moved to the convex side
 * by H²/16 · B''(t), which centres the polyline on the curve and halves its worst deviation.
 * Since B'' is linear in t, the moved chord differs from the curve by exactly
 * H²(u(1-u)/2 - 1/16) · B''(t) + H³ u(1-u)(1-2u)/6 · B''', hence the bound below. Pieces
 * touching a segment end (kept exact, unmoved) are END_RATIO · H long, which keeps their
 * deviation within the same H²/16 · max|B''| (root of 64q² - 48q + 1 = 0, r = √q).
 *
 * B'' also has a component along the curve, which only slides a vertex along it. Where potrace
 * ends a cubic at a sharp bend with a short control arm (the apex of a zigzag, a diamond's point),
 * the curve slows to a near stop there and that slide is many times the length of the pieces next
 * to the end: the moved vertices jump past the end and back, and the contour folds over itself by
 * a few micrometres (a Z, which cutting software may flag, and which crossed itself in a zigzag
 * lace too often to mend). Such a cubic (`runsAlong` says which) is cut into chords between points
 * on the curve instead (`pushOnCurve`): they never step back along a curve that turns one way, and
 * stay within the same tolerance (H²/8 · max|B''|).
 */
const END_RATIO = Math.sqrt((48 - Math.sqrt(48 * 48 - 256)) / 128);
const CUBIC_TERM = Math.sqrt(3) / 108 + 1 / 64;
// A runaway piece count would only come from a broken curve; the cap keeps it finite.
const MAX_PIECES = 4096;

/** Control-point second differences: B''(t) = 6((1 - t) d0 + t d1). */
interface Cubic {
  p0: Point;
  p1: Point;
  p2: Point;
  p3: Point;
  d0: Point;
  d1: Point;
}

function cubic(p0: Point, p1: Point, p2: Point, p3: Point): Cubic {
  const d0: Point = [p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1]];
  const d1: Point = [p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1]];
  return { p0, p1, p2, p3, d0, d1 };
}

/** The point at parameter t of the cubic Bézier p0..p3. */
export function cubicAt(p0: Point, p1: Point, p2: Point, p3: Point, t: number): Point {
  const s = 1 - t;
  const a = s * s * s;
  const b = 3 * s * s * t;
  const c = 3 * s * t * t;
  const d = t * t * t;
  return [a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]];
}

/** The guaranteed largest deviation when the cubic is cut into n pieces (see END_RATIO). */
function deviationBound(m2: number, m3: number, n: number): number {
  if (n === 1) return m2 / 8;
  const h = 1 / (n - 2 + 2 * END_RATIO);
  return (h * h * m2) / 16 + h * h * h * m3 * CUBIC_TERM;
}

/** The fewest pieces whose deviation from the cubic is guaranteed within `tolerance`. */
function cubicPieces(p0: Point, p1: Point, p2: Point, p3: Point, tolerance: number): number {
  const { d0, d1 } = cubic(p0, p1, p2, p3);
  const m2 = 6 * Math.max(Math.hypot(d0[0], d0[1]), Math.hypot(d1[0], d1[1]));
  const m3 = 6 * Math.hypot(d1[0] - d0[0], d1[1] - d0[1]);
  if (deviationBound(m2, m3, 1) <= tolerance) return 1;
  let n = Math.max(2, Math.floor(1 / Math.sqrt((16 * tolerance) / m2) + 2 - 2 * END_RATIO));
  while (n < MAX_PIECES && deviationBound(m2, m3, n) > tolerance) n++;
  return n;
}

/** The fewest pieces whose chords between points on the cubic stay within `tolerance` of it: H²/8 · max|B''|. */
function onCurvePieces(c: Cubic, tolerance: number): number {
  const m2 = 6 * Math.max(Math.hypot(c.d0[0], c.d0[1]), Math.hypot(c.d1[0], c.d1[1]));
  return Math.min(MAX_PIECES, Math.max(1, Math.ceil(Math.sqrt(m2 / (8 * tolerance)))));
}

/** Appends the inner vertices of the cubic cut into n pieces (not its ends), moved to the convex side. */
function pushInner(ring: Point[], c: Cubic, n: number): void {
  if (n === 1) return;
  const h = 1 / (n - 2 + 2 * END_RATIO);
  const k = (6 * h * h) / 16;
  for (let i = 1; i < n; i++) {
    const t = END_RATIO * h + (i - 1) * h;
    const [x, y] = cubicAt(c.p0, c.p1, c.p2, c.p3, t);
    ring.push([x - k * ((1 - t) * c.d0[0] + t * c.d1[0]), y - k * ((1 - t) * c.d0[1] + t * c.d1[1])]);
  }
}

/** Appends the inner vertices of the cubic cut into n equal steps of t, on the curve itself. */
function pushOnCurve(ring: Point[], c: Cubic, n: number): void {
  for (let i = 1; i < n; i++) ring.push(cubicAt(c.p0, c.p1, c.p2, c.p3, i / n));
}

/**
 * Whether the moved vertices ring[from..] run along the cubic as it does: every piece turns less
 * than a right angle from the one before, and the first and last pieces leave and reach the ends
 * within 45° of the curve's own direction there. Neighbouring cubics share that direction (potrace
 * joins them smoothly), so no vertex of the ring then turns back on itself across a join either.
 */
function runsAlong(ring: readonly Point[], from: number, c: Cubic): boolean {
  let [px, py] = c.p0;
  let dx = 0;
  let dy = 0;
  for (let i = from; i <= ring.length; i++) {
    const [x, y] = i < ring.length ? ring[i]! : c.p3;
    const ex = x - px;
    const ey = y - py;
    if (i === from && !within45(ex, ey, ...tangent(c.p0, c.p1, c.p2))) return false;
    if (i > from && dx * ex + dy * ey <= 0) return false;
    [px, py, dx, dy] = [x, y, ex, ey];
  }
  const [tx, ty] = tangent(c.p3, c.p2, c.p1);
  return within45(dx, dy, -tx, -ty);
}

/** The direction in which a cubic leaves its end `a`, towards its nearest distinct control point. */
function tangent(a: Point, b: Point, c: Point): Point {
  const bx = b[0] - a[0];
  const by = b[1] - a[1];
  return bx !== 0 || by !== 0 ? [bx, by] : [c[0] - a[0], c[1] - a[1]];
}

const within45 = (ax: number, ay: number, bx: number, by: number): boolean => {
  const dot = ax * bx + ay * by;
  return dot > 0 && 2 * dot * dot > (ax * ax + ay * ay) * (bx * bx + by * by);
};

/** Appends the cubic's vertices after its start, its end included (see the cut into pieces above). */
function pushCubic(ring: Point[], c: Cubic, tolerance: number): void {
  const from = ring.length;
  pushInner(ring, c, cubicPieces(c.p0, c.p1, c.p2, c.p3, tolerance));
  if (!runsAlong(ring, from, c)) {
    ring.length = from;
    pushOnCurve(ring, c, onCurvePieces(c, tolerance));
  }
  ring.push(c.p3);
}

const toMm = (p: PotracePoint, m: PixelToMm): Point => [(p.x - m.ox) * m.sx, (p.y - m.oy) * m.sy];

/**
 * Flattens a traced curve into a closed ring in millimetres (last point not repeated): every
 * point of the ring lies within `toleranceMm` of the curve and every point of the curve within
 * `toleranceMm` of the ring. Corner vertices and segment ends are kept exactly. Scaling the
 * control points first makes the tolerance hold in millimetres even when the two axes have
 * different scales (Béziers are affine-invariant).
 */
export function flattenCurve(curve: PotraceCurve, map: PixelToMm, toleranceMm: number): Point[] {
  const ring: Point[] = [];
  let start = toMm(curve.c[(curve.n - 1) * 3 + 2]!, map);
  for (let i = 0; i < curve.n; i++) {
    const end = toMm(curve.c[i * 3 + 2]!, map);
    const mid = toMm(curve.c[i * 3 + 1]!, map);
    if (curve.tag[i] === 'CORNER') {
      ring.push(mid, end);
    } else {
      pushCubic(ring, cubic(start, toMm(curve.c[i * 3]!, map), mid, end), toleranceMm);
    }
    start = end;
  }
  return ring;
}
