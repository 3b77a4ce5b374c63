// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import { ddenom, dpara, mod } from './geometry.ts';
import type { Scratch } from './scratch.ts';
import type { PotraceCurve, PotracePoint } from './types.ts';

/** Reverses the order of the m adjusted vertices (a hole is traced the other way round). */
export function reverseVertices(s: Scratch, m: number): void {
  const { vx, vy } = s;
  for (let i = 0, j = m - 1; i < j; i++, j--) {
    const tx = vx[i]!;
    const ty = vy[i]!;
    vx[i] = vx[j]!;
    vy[i] = vy[j]!;
    vx[j] = tx;
    vy[j] = ty;
  }
}

/**
 * Potrace's smoothing of the m adjusted vertices into a curve (`s.corner`, `s.cx`, `s.cy`,
 * `s.alpha`): segment j ends at the midpoint of vertices j and j + 1; it is a corner through
 * vertex j when the curve there would need `alpha >= alphaMax`, otherwise a Bézier whose controls
 * sit on the edges towards vertex j.
 */
export function smoothCurve(s: Scratch, m: number, alphaMax: number): void {
  const { vx, vy, corner, cx, cy } = s;
  for (let i = 0; i < m; i++) {
    const j = mod(i + 1, m);
    const k = mod(i + 2, m);
    const xi = vx[i]!;
    const yi = vy[i]!;
    const xj = vx[j]!;
    const yj = vy[j]!;
    const xk = vx[k]!;
    const yk = vy[k]!;
    const p4x = xk + (1 / 2.0) * (xj - xk);
    const p4y = yk + (1 / 2.0) * (yj - yk);

    let alpha: number;
    const denom = ddenom(xi, yi, xk, yk);
    if (denom !== 0.0) {
      let dd = dpara(xi, yi, xj, yj, xk, yk) / denom;
      dd = Math.abs(dd);
      alpha = dd > 1 ? 1 - 1.0 / dd : 0;
      alpha = alpha / 0.75;
    } else {
      alpha = 4 / 3.0;
    }

    const c = 3 * j;
    if (alpha >= alphaMax) {
      corner[j] = 1;
      cx[c] = cx[c + 1] = xj;
      cy[c] = cy[c + 1] = yj;
    } else {
      if (alpha < 0.55) alpha = 0.55;
      else if (alpha > 1) alpha = 1;
      const t = 0.5 + 0.5 * alpha;
      corner[j] = 0;
      cx[c] = xi + t * (xj - xi);
      cy[c] = yi + t * (yj - yi);
      cx[c + 1] = xk + t * (xj - xk);
      cy[c + 1] = yk + t * (yj - yk);
    }
    cx[c + 2] = p4x;
    cy[c + 2] = p4y;
    s.alpha[j] = alpha;
  }
}

/** The smoothed curve of m segments in `s`, as potrace hands it on without curve optimisation. */
export function smoothedCurve(s: Scratch, m: number): PotraceCurve {
  const { corner, cx, cy } = s;
  const tag: PotraceCurve['tag'] = new Array(m);
  const c: PotracePoint[] = new Array(3 * m);
  for (let i = 0; i < m; i++) {
    tag[i] = corner[i] ? 'CORNER' : 'CURVE';
    for (let k = 3 * i; k < 3 * i + 3; k++) c[k] = { x: cx[k]!, y: cy[k]! };
  }
  return { n: m, tag, c };
}
