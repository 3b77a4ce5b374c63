// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
//
// Potrace's small geometric helpers on plain coordinates, each computing in the port's order so
// that results match it to the last bit.

/** a mod n for any integer a, in 0..n-1. */
export const mod = (a: number, n: number): number => (a >= n ? a % n : a >= 0 ? a : n - 1 - ((-1 - a) % n));

/** Whether b lies in the cyclic interval [a, c). */
export const cyclic = (a: number, b: number, c: number): boolean => (a <= c ? a <= b && b < c : a <= b || b < c);

export const sign = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : 0);

/** Cross product (p1 - p0) × (p2 - p0): twice the signed area of the triangle. */
export function dpara(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number): number {
  const ax = x1 - x0;
  const ay = y1 - y0;
  const bx = x2 - x0;
  const by = y2 - y0;
  return ax * by - bx * ay;
}

/** Cross product (p1 - p0) × (p3 - p2). */
export function cprod(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
): number {
  const ax = x1 - x0;
  const ay = y1 - y0;
  const bx = x3 - x2;
  const by = y3 - y2;
  return ax * by - bx * ay;
}

/** Inner product (p1 - p0) · (p2 - p0). */
export function iprod(x0: number, y0: number, x1: number, y1: number, x2: number, y2: number): number {
  const ax = x1 - x0;
  const ay = y1 - y0;
  const bx = x2 - x0;
  const by = y2 - y0;
  return ax * bx + ay * by;
}

/** Inner product (p1 - p0) · (p3 - p2). */
export function iprod1(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
): number {
  const ax = x1 - x0;
  const ay = y1 - y0;
  const bx = x3 - x2;
  const by = y3 - y2;
  return ax * bx + ay * by;
}

export const ddist = (px: number, py: number, qx: number, qy: number): number =>
  Math.sqrt((px - qx) * (px - qx) + (py - qy) * (py - qy));

/** The port's `ddenom`: the L∞ orthogonal of p2 - p0 against p2 - p0 (0 only when they coincide). */
export function ddenom(x0: number, y0: number, x2: number, y2: number): number {
  const ry = sign(x2 - x0);
  const rx = -sign(y2 - y0);
  return ry * (x2 - x0) - rx * (y2 - y0);
}

/** The x (or y) coordinate at parameter t of a cubic Bézier with those coordinates. */
export function bezier(t: number, p0: number, p1: number, p2: number, p3: number): number {
  const s = 1 - t;
  return s * s * s * p0 + 3 * (s * s * t) * p1 + 3 * (t * t * s) * p2 + t * t * t * p3;
}

/**
 * The parameter in [0, 1] where the Bézier p0..p3 is parallel to q0q1, or -1 when there is none
 * (the port's `tangent`).
 */
export function tangent(p: Float64Array, q0x: number, q0y: number, q1x: number, q1y: number): number {
  const A = cprod(p[0]!, p[1]!, p[2]!, p[3]!, q0x, q0y, q1x, q1y);
  const B = cprod(p[2]!, p[3]!, p[4]!, p[5]!, q0x, q0y, q1x, q1y);
  const C = cprod(p[4]!, p[5]!, p[6]!, p[7]!, q0x, q0y, q1x, q1y);
  const a = A - 2 * B + C;
  const b = -2 * A + 2 * B;
  const c = A;
  const d = b * b - 4 * a * c;
  if (a === 0 || d < 0) return -1.0;
  const s = Math.sqrt(d);
  const r1 = (-b + s) / (2 * a);
  const r2 = (-b - s) / (2 * a);
  if (r1 >= 0 && r1 <= 1) return r1;
  if (r2 >= 0 && r2 <= 1) return r2;
  return -1.0;
}
