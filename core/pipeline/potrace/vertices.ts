// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import { mod } from './geometry.ts';
import type { Scratch } from './scratch.ts';

/**
 * Potrace's vertex adjustment: moves each of the m polygon vertices (`s.po`) to the point,
 * within the unit square around its outline corner, closest to the best-fitting lines of its two
 * edges (`s.vx`, `s.vy`).
 */
export function adjustVertices(s: Scratch, n: number, m: number): void {
  const { x: X, y: Y, po, ctrX, ctrY, dirX, dirY, quad: q, vx, vy } = s;
  const x0 = X[0]!;
  const y0 = Y[0]!;

  for (let i = 0; i < m; i++) {
    let j = po[mod(i + 1, m)]!;
    j = mod(j - po[i]!, n) + po[i]!;
    pointSlope(s, n, po[i]!, j, i);
  }

  for (let i = 0; i < m; i++) {
    const d = dirX[i]! * dirX[i]! + dirY[i]! * dirY[i]!;
    const o = 9 * i;
    if (d === 0.0) {
      q.fill(0, o, o + 9);
    } else {
      const v0 = dirY[i]!;
      const v1 = -dirX[i]!;
      const v2 = -v1 * ctrY[i]! - v0 * ctrX[i]!;
      q[o] = (v0 * v0) / d;
      q[o + 1] = (v0 * v1) / d;
      q[o + 2] = (v0 * v2) / d;
      q[o + 3] = (v1 * v0) / d;
      q[o + 4] = (v1 * v1) / d;
      q[o + 5] = (v1 * v2) / d;
      q[o + 6] = (v2 * v0) / d;
      q[o + 7] = (v2 * v1) / d;
      q[o + 8] = (v2 * v2) / d;
    }
  }

  // The quadratic form of the vertex's two lines, row-major.
  const Q = new Float64Array(9);
  for (let i = 0; i < m; i++) {
    const sx = X[po[i]!]! - x0;
    const sy = Y[po[i]!]! - y0;
    const a = 9 * mod(i - 1, m);
    const b = 9 * i;
    for (let l = 0; l < 9; l++) Q[l] = q[a + l]! + q[b + l]!;

    let wx: number;
    let wy: number;
    for (;;) {
      const det = Q[0]! * Q[4]! - Q[1]! * Q[3]!;
      if (det !== 0.0) {
        wx = (-Q[2]! * Q[4]! + Q[5]! * Q[1]!) / det;
        wy = (Q[2]! * Q[3]! - Q[5]! * Q[0]!) / det;
        break;
      }
      // The lines are parallel: add a line through the corner across them.
      let v0: number;
      let v1: number;
      if (Q[0]! > Q[4]!) {
        v0 = -Q[1]!;
        v1 = Q[0]!;
      } else if (Q[4]) {
        v0 = -Q[4]!;
        v1 = Q[3]!;
      } else {
        v0 = 1;
        v1 = 0;
      }
      const d = v0 * v0 + v1 * v1;
      const v2 = -v1 * sy - v0 * sx;
      Q[0] = Q[0]! + (v0 * v0) / d;
      Q[1] = Q[1]! + (v0 * v1) / d;
      Q[2] = Q[2]! + (v0 * v2) / d;
      Q[3] = Q[3]! + (v1 * v0) / d;
      Q[4] = Q[4]! + (v1 * v1) / d;
      Q[5] = Q[5]! + (v1 * v2) / d;
      Q[6] = Q[6]! + (v2 * v0) / d;
      Q[7] = Q[7]! + (v2 * v1) / d;
      Q[8] = Q[8]! + (v2 * v2) / d;
    }

    if (Math.abs(wx - sx) <= 0.5 && Math.abs(wy - sy) <= 0.5) {
      vx[i] = wx + x0;
      vy[i] = wy + y0;
      continue;
    }

    // The optimum lies outside the unit square: the best point on its border.
    let min = quadForm(Q, sx, sy);
    let xmin = sx;
    let ymin = sy;
    if (Q[0] !== 0.0) {
      for (let z = 0; z < 2; z++) {
        const cy = sy - 0.5 + z;
        const cx = -(Q[1]! * cy + Q[2]!) / Q[0]!;
        const cand = quadForm(Q, cx, cy);
        if (Math.abs(cx - sx) <= 0.5 && cand < min) {
          min = cand;
          xmin = cx;
          ymin = cy;
        }
      }
    }
    if (Q[4] !== 0.0) {
      for (let z = 0; z < 2; z++) {
        const cx = sx - 0.5 + z;
        const cy = -(Q[3]! * cx + Q[5]!) / Q[4]!;
        const cand = quadForm(Q, cx, cy);
        if (Math.abs(cy - sy) <= 0.5 && cand < min) {
          min = cand;
          xmin = cx;
          ymin = cy;
        }
      }
    }
    for (let l = 0; l < 2; l++) {
      for (let k = 0; k < 2; k++) {
        const cx = sx - 0.5 + l;
        const cy = sy - 0.5 + k;
        const cand = quadForm(Q, cx, cy);
        if (cand < min) {
          min = cand;
          xmin = cx;
          ymin = cy;
        }
      }
    }
    vx[i] = xmin + x0;
    vy[i] = ymin + y0;
  }
}

/** (x, y, 1) Q (x, y, 1)ᵀ, summed in the port's order. */
function quadForm(Q: Float64Array, x: number, y: number): number {
  let sum = 0.0;
  sum += x * Q[0]! * x;
  sum += x * Q[1]! * y;
  sum += x * Q[2]! * 1;
  sum += y * Q[3]! * x;
  sum += y * Q[4]! * y;
  sum += y * Q[5]! * 1;
  sum += 1 * Q[6]! * x;
  sum += 1 * Q[7]! * y;
  sum += 1 * Q[8]! * 1;
  return sum;
}

/**
 * The centre and direction of the line that best fits outline points i..j (indices may wrap
 * around), into entry `e` of `s.ctrX`, `s.ctrY`, `s.dirX`, `s.dirY`.
 */
function pointSlope(s: Scratch, n: number, i: number, j: number, e: number): void {
  const { sumX, sumY, sumXY, sumX2, sumY2 } = s;
  let r = 0;
  while (j >= n) {
    j -= n;
    r += 1;
  }
  while (i >= n) {
    i -= n;
    r -= 1;
  }
  while (j < 0) {
    j += n;
    r -= 1;
  }
  while (i < 0) {
    i += n;
    r += 1;
  }
  const x = sumX[j + 1]! - sumX[i]! + r * sumX[n]!;
  const y = sumY[j + 1]! - sumY[i]! + r * sumY[n]!;
  const x2 = sumX2[j + 1]! - sumX2[i]! + r * sumX2[n]!;
  const xy = sumXY[j + 1]! - sumXY[i]! + r * sumXY[n]!;
  const y2 = sumY2[j + 1]! - sumY2[i]! + r * sumY2[n]!;
  const k = j + 1 - i + r * n;

  s.ctrX[e] = x / k;
  s.ctrY[e] = y / k;

  let a = (x2 - (x * x) / k) / k;
  const b = (xy - (x * y) / k) / k;
  let c = (y2 - (y * y) / k) / k;
  const lambda2 = (a + c + Math.sqrt((a - c) * (a - c) + 4 * b * b)) / 2;
  a -= lambda2;
  c -= lambda2;

  let l: number;
  let dx = 0;
  let dy = 0;
  if (Math.abs(a) >= Math.abs(c)) {
    l = Math.sqrt(a * a + b * b);
    if (l !== 0) {
      dx = -b / l;
      dy = a / l;
    }
  } else {
    l = Math.sqrt(c * c + b * b);
    if (l !== 0) {
      dx = -c / l;
      dy = b / l;
    }
  }
  s.dirX[e] = dx;
  s.dirY[e] = dy;
}
