import type { CutRings, Ring } from './cut-rings.ts';
import type { WornLayout } from './layout.ts';
import { PathData, type Pace } from './path-data.ts';

/**
 * The blank bent round: a point (u along the length, v across the width, millimetres) goes to
 * azimuth θ(u) = θmid + (u − L/2) / R on a cylinder of neutral radius R, the blank's middle
 * opposite the gap. Bending keeps lengths along the neutral surface, so a straight edge of the
 * blank becomes a helix, drawn as short straight pieces.
 */
export interface Bend {
  lengthMm: number;
  widthMm: number;
  layout: WornLayout;
}

const azimuth = (bend: Bend, u: number): number =>
  bend.layout.gapAzimuth - Math.PI + (u - bend.lengthMm / 2) / bend.layout.radiusMm;

/** A stretch of the blank [from, to] (mm along its length) that faces the eye (`front`) or away. */
interface Span {
  from: number;
  to: number;
  front: boolean;
}

/**
 * The blank cut where the bent surface turns edge-on to the eye (θ = ±90°, the cylinder's
 * silhouette in an orthographic view from any elevation): on a front span the outer face shows,
 * on a back span the inner face of the far wall.
 */
export function facingSpans(bend: Bend): Span[] {
  const { radiusMm: r } = bend.layout;
  const cuts: number[] = [];
  // θ(u) = π/2 + kπ  ⇔  u = L/2 + R (π/2 + kπ − θmid)
  const thetaMid = bend.layout.gapAzimuth - Math.PI;
  const kFrom = Math.floor((azimuth(bend, 0) - Math.PI / 2) / Math.PI);
  const kTo = Math.ceil((azimuth(bend, bend.lengthMm) - Math.PI / 2) / Math.PI);
  for (let k = kFrom; k <= kTo; k++) {
    const u = bend.lengthMm / 2 + r * (Math.PI / 2 + k * Math.PI - thetaMid);
    if (u > 1e-9 && u < bend.lengthMm - 1e-9) cuts.push(u);
  }
  const edges = [0, ...cuts, bend.lengthMm];
  const spans: Span[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i]!;
    const to = edges[i + 1]!;
    spans.push({ from, to, front: Math.cos(azimuth(bend, (from + to) / 2)) > 0 });
  }
  return spans;
}

/** One side of a Sutherland–Hodgman pass: keeps the part of the ring where `inside` holds. */
function clipSide(
  ring: number[],
  inside: (x: number, y: number) => boolean,
  cross: (x0: number, y0: number, x1: number, y1: number) => [number, number],
): number[] {
  const out: number[] = [];
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const x0 = ring[2 * i]!;
    const y0 = ring[2 * i + 1]!;
    const x1 = ring[2 * j]!;
    const y1 = ring[2 * j + 1]!;
    const in0 = inside(x0, y0);
    const in1 = inside(x1, y1);
    if (in0) out.push(x0, y0);
    if (in0 !== in1) out.push(...cross(x0, y0, x1, y1));
  }
  return out;
}

const atU =
  (u: number) =>
  (x0: number, y0: number, x1: number, y1: number): [number, number] => [u, y0 + ((u - x0) * (y1 - y0)) / (x1 - x0)];
const atV =
  (v: number) =>
  (x0: number, y0: number, x1: number, y1: number): [number, number] => [x0 + ((v - y0) * (x1 - x0)) / (y1 - y0), v];

/**
 * The part of a ring inside the box [u0, u1] × [0, W]. Against a convex box, Sutherland–Hodgman
 * gives one ring whose pieces of a concave ring are joined along the box's sides; those joins
 * run both ways over the same line, which an even-odd fill never sees.
 */
function clipRing(ring: Ring, u0: number, u1: number, widthMm: number): ArrayLike<number> {
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    minU = Math.min(minU, ring[i]!);
    maxU = Math.max(maxU, ring[i]!);
    minV = Math.min(minV, ring[i + 1]!);
    maxV = Math.max(maxV, ring[i + 1]!);
  }
  if (maxU <= u0 || minU >= u1) return [];
  if (minU >= u0 && maxU <= u1 && minV >= 0 && maxV <= widthMm) return ring;
  let out = Array.from(ring);
  if (minU < u0) out = clipSide(out, (x) => x >= u0, atU(u0));
  if (maxU > u1) out = clipSide(out, (x) => x <= u1, atU(u1));
  if (minV < 0) out = clipSide(out, (_, y) => y >= 0, atV(0));
  if (maxV > widthMm) out = clipSide(out, (_, y) => y <= widthMm, atV(widthMm));
  return out.length >= 6 ? out : [];
}

/** Rings between turns of the event loop. */
const RINGS_PER_PACE = 64;

/** The span's box and every ring clipped to it, in millimetres on the blank. */
export async function spanRings(cut: CutRings, span: Span, widthMm: number, pace: Pace): Promise<ArrayLike<number>[]> {
  const rings: ArrayLike<number>[] = [[span.from, 0, span.to, 0, span.to, widthMm, span.from, widthMm]];
  for (let r = 0; r < cut.rings.length; r++) {
    if (r % RINGS_PER_PACE === 0) await pace();
    const clipped = clipRing(cut.rings[r]!, span.from, span.to, widthMm);
    if (clipped.length > 0) rings.push(clipped);
  }
  return rings;
}

/**
 * Rings of the blank bent round and seen from the eye, as SVG path data (`PathData` tenths) at
 * radius `radiusMm` (the outer or the inner face): each edge cut into pieces of at most `maxArc`
 * radians of azimuth, so arcs stay round.
 */
export async function bentPath(
  rings: readonly ArrayLike<number>[],
  bend: Bend,
  radiusMm: number,
  maxArc: number,
  pace: Pace,
): Promise<string> {
  const { pxPerMm: s, cx, cy, elevation, radiusMm: neutral } = bend.layout;
  const cosE = Math.cos(elevation);
  const sinE = Math.sin(elevation);
  const halfWidth = bend.widthMm / 2;
  const maxStep = neutral * maxArc;
  const d = new PathData();
  const x = (u: number) => cx + s * radiusMm * Math.sin(azimuth(bend, u));
  const y = (u: number, v: number) => cy + s * ((v - halfWidth) * cosE + radiusMm * Math.cos(azimuth(bend, u)) * sinE);
  for (let r = 0; r < rings.length; r++) {
    if (r % RINGS_PER_PACE === 0) await pace();
    const ring = rings[r]!;
    const n = ring.length / 2;
    d.move(x(ring[0]!), y(ring[0]!, ring[1]!));
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const u0 = ring[2 * i]!;
      const v0 = ring[2 * i + 1]!;
      const du = ring[2 * j]! - u0;
      const dv = ring[2 * j + 1]! - v0;
      const pieces = Math.max(1, Math.ceil(Math.abs(du) / maxStep));
      for (let k = 1; k <= pieces; k++) {
        const u = u0 + (du * k) / pieces;
        d.line(x(u), y(u, v0 + (dv * k) / pieces));
      }
    }
    d.close();
  }
  return d.toString();
}
