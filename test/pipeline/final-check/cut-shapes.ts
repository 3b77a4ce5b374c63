import type { FinalCut, Ring } from '../../../core/pipeline/final-check/rings.ts';

/** Hand-made cutting geometry in millimetres, for the final check's tests: rings in file units. */
export type Pt = [number, number];

export const ring = (points: Pt[]): Ring =>
  Int32Array.from(points.flatMap(([x, y]) => [Math.round(x * 1000), Math.round(y * 1000)]));

export const cut = (outer: Pt[], ...holes: Pt[][]): FinalCut => ({ outer: ring(outer), holes: holes.map(ring) });

export const rect = (x: number, y: number, w: number, h: number): Pt[] => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
];

/** A regular polygon of `n` vertices on the circle. */
export const circle = (cx: number, cy: number, r: number, n = 64): Pt[] =>
  Array.from({ length: n }, (_, i) => [
    cx + r * Math.cos((2 * Math.PI * i) / n),
    cy + r * Math.sin((2 * Math.PI * i) / n),
  ]);

/** The middle of a chord, in millimetres. */
export const middle = (c: { vx: number; qx: number; vy: number; qy: number }) => [
  (c.vx + c.qx) / 2000,
  (c.vy + c.qy) / 2000,
];
