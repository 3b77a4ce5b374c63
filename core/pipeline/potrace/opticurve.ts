// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import { bezier, cprod, ddist, dpara, iprod, iprod1, mod, sign, tangent } from './geometry.ts';
import type { Scratch } from './scratch.ts';
import type { PotraceCurve, PotracePoint } from './types.ts';

/** Potrace's default curve optimisation tolerance (the port's `optTolerance`). */
const OPT_TOLERANCE = 0.2;
/** cos(179°): a joined stretch may not turn back on itself. */
const MIN_COS = -0.999847695156;

/**
 * Potrace's curve optimisation of the smoothed curve of m segments in `s`: joins runs of
 * neighbouring curve segments that turn the same way into single Béziers where the result stays
 * within tolerance of them, fewest segments first, then least penalty.
 */
export function optimisedCurve(s: Scratch, m: number): PotraceCurve {
  const { vx, vy, corner, cx, cy, convc, areac, optPt: pt, optPen: pen, optLen: len, opt } = s;

  for (let i = 0; i < m; i++) {
    if (corner[i]) {
      convc[i] = 0;
    } else {
      const a = mod(i - 1, m);
      const b = mod(i + 1, m);
      convc[i] = sign(dpara(vx[a]!, vy[a]!, vx[i]!, vy[i]!, vx[b]!, vy[b]!));
    }
  }

  // Area under the curve from vertex 0, segment by segment.
  let area = 0.0;
  areac[0] = 0.0;
  for (let i = 0; i < m; i++) {
    const i1 = mod(i + 1, m);
    if (!corner[i1]) {
      const alpha = s.alpha[i1]!;
      const e0 = 3 * i + 2;
      const e1 = 3 * i1 + 2;
      area += (0.3 * alpha * (4 - alpha) * dpara(cx[e0]!, cy[e0]!, vx[i1]!, vy[i1]!, cx[e1]!, cy[e1]!)) / 2;
      area += dpara(vx[0]!, vy[0]!, cx[e0]!, cy[e0]!, cx[e1]!, cy[e1]!) / 2;
    }
    areac[i + 1] = area;
  }

  const res = new Float64Array(7);
  const bez = new Float64Array(8);
  pt[0] = -1;
  pen[0] = 0;
  len[0] = 0;
  for (let j = 1; j <= m; j++) {
    pt[j] = j - 1;
    pen[j] = pen[j - 1]!;
    len[j] = len[j - 1]! + 1;
    for (let i = j - 2; i >= 0; i--) {
      const p = joinPenalty(s, m, i, mod(j, m), res, bez);
      if (p < 0) break;
      if (len[j]! > len[i]! + 1 || (len[j] === len[i]! + 1 && pen[j]! > pen[i]! + p)) {
        pt[j] = i;
        pen[j] = pen[i]! + p;
        len[j] = len[i]! + 1;
        opt.set(res, 7 * j);
      }
    }
  }

  const om = len[m]!;
  const tag: PotraceCurve['tag'] = new Array(om);
  const c: PotracePoint[] = new Array(3 * om);
  for (let i = om - 1, j = m; i >= 0; i--) {
    const e = 3 * mod(j, m);
    if (pt[j] === j - 1) {
      tag[i] = corner[mod(j, m)] ? 'CORNER' : 'CURVE';
      c[3 * i] = { x: cx[e]!, y: cy[e]! };
      c[3 * i + 1] = { x: cx[e + 1]!, y: cy[e + 1]! };
    } else {
      const o = 7 * j;
      tag[i] = 'CURVE';
      c[3 * i] = { x: opt[o]!, y: opt[o + 1]! };
      c[3 * i + 1] = { x: opt[o + 2]!, y: opt[o + 3]! };
    }
    c[3 * i + 2] = { x: cx[e + 2]!, y: cy[e + 2]! };
    j = pt[j]!;
  }
  return { n: om, tag, c };
}

/**
 * The penalty of replacing segments i+1..j by one Bézier (into `res`: controls, alpha, s, t),
 * or -1 when that is not allowed (the port's `opti_penalty`).
 */
function joinPenalty(s: Scratch, m: number, i: number, j: number, res: Float64Array, bez: Float64Array): number {
  const { vx, vy, cx, cy, convc, areac } = s;
  if (i === j) return -1;

  const i1 = mod(i + 1, m);
  let k1 = mod(i + 1, m);
  const conv = convc[k1]!;
  if (conv === 0) return -1;
  let d = ddist(vx[i]!, vy[i]!, vx[i1]!, vy[i1]!);
  for (let k = k1; k !== j; k = k1) {
    k1 = mod(k + 1, m);
    const k2 = mod(k + 2, m);
    if (convc[k1] !== conv) return -1;
    const turn = cprod(vx[i]!, vy[i]!, vx[i1]!, vy[i1]!, vx[k1]!, vy[k1]!, vx[k2]!, vy[k2]!);
    if (sign(turn) !== conv) return -1;
    const along = iprod1(vx[i]!, vy[i]!, vx[i1]!, vy[i1]!, vx[k1]!, vy[k1]!, vx[k2]!, vy[k2]!);
    if (along < d * ddist(vx[k1]!, vy[k1]!, vx[k2]!, vy[k2]!) * MIN_COS) return -1;
  }

  const e0 = 3 * mod(i, m) + 2;
  const e3 = 3 * mod(j, m) + 2;
  const p0x = cx[e0]!;
  const p0y = cy[e0]!;
  let p1x = vx[mod(i + 1, m)]!;
  let p1y = vy[mod(i + 1, m)]!;
  let p2x = vx[mod(j, m)]!;
  let p2y = vy[mod(j, m)]!;
  const p3x = cx[e3]!;
  const p3y = cy[e3]!;

  let area = areac[j]! - areac[i]!;
  area -= dpara(vx[0]!, vy[0]!, cx[3 * i + 2]!, cy[3 * i + 2]!, cx[3 * j + 2]!, cy[3 * j + 2]!) / 2;
  if (i >= j) area += areac[m]!;

  const A1 = dpara(p0x, p0y, p1x, p1y, p2x, p2y);
  const A2 = dpara(p0x, p0y, p1x, p1y, p3x, p3y);
  const A3 = dpara(p0x, p0y, p2x, p2y, p3x, p3y);
  const A4 = A1 + A3 - A2;
  if (A2 === A1) return -1;

  let t = A3 / (A3 - A4);
  const sj = A2 / (A2 - A1);
  const A = (A2 * t) / 2.0;
  if (A === 0.0) return -1;
  const R = area / A;
  const alpha = 2 - Math.sqrt(4 - R / 0.3);

  res[0] = p0x + t * alpha * (p1x - p0x);
  res[1] = p0y + t * alpha * (p1y - p0y);
  res[2] = p3x + sj * alpha * (p2x - p3x);
  res[3] = p3y + sj * alpha * (p2y - p3y);
  res[4] = alpha;
  res[5] = sj;
  res[6] = t;
  p1x = res[0];
  p1y = res[1];
  p2x = res[2];
  p2y = res[3];
  bez[0] = p0x;
  bez[1] = p0y;
  bez[2] = p1x;
  bez[3] = p1y;
  bez[4] = p2x;
  bez[5] = p2y;
  bez[6] = p3x;
  bez[7] = p3y;

  let pen = 0;
  for (let k = mod(i + 1, m); k !== j; k = k1) {
    k1 = mod(k + 1, m);
    const ax = vx[k]!;
    const ay = vy[k]!;
    const bx = vx[k1]!;
    const by = vy[k1]!;
    t = tangent(bez, ax, ay, bx, by);
    if (t < -0.5) return -1;
    const ptx = bezier(t, p0x, p1x, p2x, p3x);
    const pty = bezier(t, p0y, p1y, p2y, p3y);
    d = ddist(ax, ay, bx, by);
    if (d === 0.0) return -1;
    const d1 = dpara(ax, ay, bx, by, ptx, pty) / d;
    if (Math.abs(d1) > OPT_TOLERANCE) return -1;
    if (iprod(ax, ay, bx, by, ptx, pty) < 0 || iprod(bx, by, ax, ay, ptx, pty) < 0) return -1;
    pen += d1 * d1;
  }

  for (let k = i; k !== j; k = k1) {
    k1 = mod(k + 1, m);
    const ax = cx[3 * k + 2]!;
    const ay = cy[3 * k + 2]!;
    const bx = cx[3 * k1 + 2]!;
    const by = cy[3 * k1 + 2]!;
    t = tangent(bez, ax, ay, bx, by);
    if (t < -0.5) return -1;
    const ptx = bezier(t, p0x, p1x, p2x, p3x);
    const pty = bezier(t, p0y, p1y, p2y, p3y);
    d = ddist(ax, ay, bx, by);
    if (d === 0.0) return -1;
    let d1 = dpara(ax, ay, bx, by, ptx, pty) / d;
    let d2 = dpara(ax, ay, bx, by, vx[k1]!, vy[k1]!) / d;
    d2 *= 0.75 * s.alpha[k1]!;
    if (d2 < 0) {
      d1 = -d1;
      d2 = -d2;
    }
    if (d1 < d2 - OPT_TOLERANCE) return -1;
    if (d1 < d2) pen += (d1 - d2) * (d1 - d2);
  }
  return pen;
}
