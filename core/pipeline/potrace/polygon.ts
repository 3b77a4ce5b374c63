// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import { cyclic, mod, sign } from './geometry.ts';
import type { Scratch } from './scratch.ts';

/**
 * Potrace's optimal polygon of an outline of n points already in `s.x`, `s.y`: fills the prefix
 * sums, the longest straight subpaths and `s.po` with the outline index of each of the polygon's
 * vertices, and returns their count.
 */
export function optimalPolygon(s: Scratch, n: number): number {
  calcSums(s, n);
  calcLon(s, n);
  return bestPolygon(s, n);
}

function calcSums(s: Scratch, n: number): void {
  const { x: X, y: Y, sumX, sumY, sumXY, sumX2, sumY2 } = s;
  const x0 = X[0]!;
  const y0 = Y[0]!;
  sumX[0] = sumY[0] = sumXY[0] = sumX2[0] = sumY2[0] = 0;
  for (let i = 0; i < n; i++) {
    const x = X[i]! - x0;
    const y = Y[i]! - y0;
    sumX[i + 1] = sumX[i]! + x;
    sumY[i + 1] = sumY[i]! + y;
    sumXY[i + 1] = sumXY[i]! + x * y;
    sumX2[i + 1] = sumX2[i]! + x * x;
    sumY2[i + 1] = sumY2[i]! + y * y;
  }
}

/** For each point, the last point of the longest straight subpath starting there (`s.lon`). */
function calcLon(s: Scratch, n: number): void {
  const { x: X, y: Y, pivk, nc, lon } = s;
  // Counts of the four step directions seen so far.
  const ct = [0, 0, 0, 0];

  let k = 0;
  for (let i = n - 1; i >= 0; i--) {
    if (X[i] !== X[k] && Y[i] !== Y[k]) k = i + 1;
    nc[i] = k;
  }

  for (let i = n - 1; i >= 0; i--) {
    ct[0] = ct[1] = ct[2] = ct[3] = 0;
    const next = mod(i + 1, n);
    ct[(3 + 3 * (X[next]! - X[i]!) + (Y[next]! - Y[i]!)) / 2]!++;

    let c0x = 0;
    let c0y = 0;
    let c1x = 0;
    let c1y = 0;
    k = nc[i]!;
    let k1 = i;
    let found = false;
    for (;;) {
      ct[(3 + 3 * sign(X[k]! - X[k1]!) + sign(Y[k]! - Y[k1]!)) / 2]!++;
      if (ct[0] && ct[1] && ct[2] && ct[3]) {
        pivk[i] = k1;
        found = true;
        break;
      }
      const curx = X[k]! - X[i]!;
      const cury = Y[k]! - Y[i]!;
      if (c0x * cury - c0y * curx < 0 || c1x * cury - c1y * curx > 0) break;
      if (!(Math.abs(curx) <= 1 && Math.abs(cury) <= 1)) {
        let offx = curx + (cury >= 0 && (cury > 0 || curx < 0) ? 1 : -1);
        let offy = cury + (curx <= 0 && (curx < 0 || cury < 0) ? 1 : -1);
        if (c0x * offy - c0y * offx >= 0) {
          c0x = offx;
          c0y = offy;
        }
        offx = curx + (cury <= 0 && (cury < 0 || curx < 0) ? 1 : -1);
        offy = cury + (curx >= 0 && (curx > 0 || cury < 0) ? 1 : -1);
        if (c1x * offy - c1y * offx <= 0) {
          c1x = offx;
          c1y = offy;
        }
      }
      k1 = k;
      k = nc[k1]!;
      if (!cyclic(k, i, k1)) break;
    }
    if (!found) {
      const dkx = sign(X[k]! - X[k1]!);
      const dky = sign(Y[k]! - Y[k1]!);
      const curx = X[k1]! - X[i]!;
      const cury = Y[k1]! - Y[i]!;
      const a = c0x * cury - c0y * curx;
      const b = c0x * dky - c0y * dkx;
      const c = c1x * cury - c1y * curx;
      const d = c1x * dky - c1y * dkx;
      let j = 10000000;
      if (b < 0) j = Math.floor(a / -b);
      if (d > 0) j = Math.min(j, Math.floor(-c / d));
      pivk[i] = mod(k1 + j, n);
    }
  }

  let j = pivk[n - 1]!;
  lon[n - 1] = j;
  for (let i = n - 2; i >= 0; i--) {
    if (cyclic(i + 1, pivk[i]!, j)) j = pivk[i]!;
    lon[i] = j;
  }
  for (let i = n - 1; cyclic(mod(i + 1, n), j, lon[i]!); i--) lon[i] = j;
}

/** The penalty of the straight edge from point i to point j (j may wrap past n). */
function penalty3(s: Scratch, n: number, i: number, j: number): number {
  const { x: X, y: Y, sumX, sumY, sumXY, sumX2, sumY2 } = s;
  let x: number, y: number, xy: number, x2: number, y2: number, k: number;
  if (j >= n) {
    j -= n;
    x = sumX[j + 1]! - sumX[i]! + sumX[n]!;
    y = sumY[j + 1]! - sumY[i]! + sumY[n]!;
    x2 = sumX2[j + 1]! - sumX2[i]! + sumX2[n]!;
    xy = sumXY[j + 1]! - sumXY[i]! + sumXY[n]!;
    y2 = sumY2[j + 1]! - sumY2[i]! + sumY2[n]!;
    k = j + 1 - i + n;
  } else {
    x = sumX[j + 1]! - sumX[i]!;
    y = sumY[j + 1]! - sumY[i]!;
    x2 = sumX2[j + 1]! - sumX2[i]!;
    xy = sumXY[j + 1]! - sumXY[i]!;
    y2 = sumY2[j + 1]! - sumY2[i]!;
    k = j + 1 - i;
  }
  const px = (X[i]! + X[j]!) / 2.0 - X[0]!;
  const py = (Y[i]! + Y[j]!) / 2.0 - Y[0]!;
  const ey = X[j]! - X[i]!;
  const ex = -(Y[j]! - Y[i]!);
  const a = (x2 - 2 * x * px) / k + px * px;
  const b = (xy - x * py - y * px) / k + px * py;
  const c = (y2 - 2 * y * py) / k + py * py;
  return Math.sqrt(ex * ex * a + 2 * ex * ey * b + ey * ey * c);
}

/** Fewest edges, then least penalty, among polygons whose edges are straight subpaths. */
function bestPolygon(s: Scratch, n: number): number {
  const { lon, pen, prev, clip0, clip1, seg0, seg1, po } = s;

  for (let i = 0; i < n; i++) {
    let c = mod(lon[mod(i - 1, n)]! - 1, n);
    if (c === i) c = mod(i + 1, n);
    clip0[i] = c < i ? n : c;
  }

  let j = 1;
  for (let i = 0; i < n; i++) {
    while (j <= clip0[i]!) {
      clip1[j] = i;
      j++;
    }
  }

  let i = 0;
  for (j = 0; i < n; j++) {
    seg0[j] = i;
    i = clip0[i]!;
  }
  seg0[j] = n;
  const m = j;

  i = n;
  for (j = m; j > 0; j--) {
    seg1[j] = i;
    i = clip1[i]!;
  }
  seg1[0] = 0;

  pen[0] = 0;
  for (j = 1; j <= m; j++) {
    for (i = seg1[j]!; i <= seg0[j]!; i++) {
      let best = -1;
      for (let k = seg0[j - 1]!; k >= clip1[i]!; k--) {
        const thispen = penalty3(s, n, k, i) + pen[k]!;
        if (best < 0 || thispen < best) {
          prev[i] = k;
          best = thispen;
        }
      }
      pen[i] = best;
    }
  }

  for (i = n, j = m - 1; i > 0; j--) {
    i = prev[i]!;
    po[j] = i;
  }
  return m;
}
