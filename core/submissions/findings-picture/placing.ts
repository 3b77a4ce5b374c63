import type { Finding } from '../../contract/finding.ts';
import type { Geometry } from '../../contract/submission.ts';
import { METAL_BELOW } from '../../pipeline/stages/classify.ts';
import { findRegions } from '../../pipeline/stages/regions.ts';
import type { StripInImage } from '../../pipeline/types.ts';

type Place = NonNullable<Finding['locations']>[number] & { px: { x: number; y: number; r: number } };

/** Pixels of the kept copy per millimetre of the strip, along the length (x) and across it (y). */
export interface CopyScale {
  sx: number;
  sy: number;
}

/** The kept copy and how its pixels relate to the uploaded image's (`k` = copy px per source px). */
export interface CopyView {
  w: number;
  h: number;
  lum: Uint8Array;
  kx: number;
  ky: number;
}

/** A place (px) may miss the scale's prediction by this much on the copy: box rounding, then the copy's. */
const FIT_TOLERANCE_PX = 3;
/** Places spread over less than this share of the strip say too little about its scale. */
const MIN_SPREAD_SHARE = 0.1;

/**
 * How the strip's millimetres lie on the kept copy, from where the pipeline placed the strip in the
 * upload (`PipelineOutcome.placement`, stored with the submission): its box scaled to the copy.
 */
export function scaleOfPlacement(copy: CopyView, placement: StripInImage): CopyScale {
  const { box, lengthMm, widthMm } = placement;
  return { sx: ((box.x1 - box.x0 + 1) * copy.kx) / lengthMm, sy: ((box.y1 - box.y0 + 1) * copy.ky) / widthMm };
}

/**
 * The same for a submission stored without its placement (before it was kept): the strip is the
 * piece's bounding box in the upload scaled to the strip (core/pipeline/findings/agent-pixels.ts),
 * found again: first the pipeline's own reading (largest metal region) on the copy, kept when it
 * puts every place where its `px` says; else a fit of the places themselves when they are spread
 * out; else the bound each place's pixel radius sets on the scale (`px.r = ceil(r * scale)`).
 * Undefined without places. Only the scale is used: insets are centred on each place's own `px`
 * and millimetres, which the pipeline already mapped onto each other.
 */
export function stripScale(copy: CopyView, places: readonly Place[], geometry: Geometry): CopyScale | undefined {
  if (places.length === 0) return undefined;
  const { lengthMm: L, widthMm: W } = geometry;
  // sy / sx on the copy: the drawn box is drawnRatio wide per unit of height, scaled to L x W.
  const ratio = (copy.ky / copy.kx) * (L / (W * geometry.drawnRatio));

  const box = pieceBox(copy);
  if (box) {
    const scale = { sx: (box.x1 - box.x0 + 1) / L, sy: (box.y1 - box.y0 + 1) / W };
    const fits = places.every(
      (p) =>
        Math.abs(box.x0 + p.x * scale.sx - p.px.x * copy.kx) <= FIT_TOLERANCE_PX &&
        Math.abs(box.y0 + p.y * scale.sy - p.px.y * copy.ky) <= FIT_TOLERANCE_PX,
    );
    if (fits) return scale;
  }

  const xs = places.map((p) => p.x);
  const ys = places.map((p) => p.y);
  if (Math.max(...xs) - Math.min(...xs) >= MIN_SPREAD_SHARE * L) {
    const sx = slope(
      xs,
      places.map((p) => p.px.x * copy.kx),
    );
    if (sx > 0) return { sx, sy: sx * ratio };
  }
  if (Math.max(...ys) - Math.min(...ys) >= MIN_SPREAD_SHARE * W) {
    const sy = slope(
      ys,
      places.map((p) => p.px.y * copy.ky),
    );
    if (sy > 0) return { sx: sy / ratio, sy };
  }

  // px.r = ceil(r * max(sx, sy)) in source pixels: each place bounds the larger scale.
  let low = 0;
  let high = Infinity;
  for (const p of places) {
    if (!(p.r > 0)) continue;
    low = Math.max(low, (p.px.r - 1) / p.r);
    high = Math.min(high, p.px.r / p.r);
  }
  if (!Number.isFinite(high) || high <= 0) return undefined;
  const larger = low <= high ? (low + high) / 2 : high;
  const sourceRatio = ratio * (copy.kx / copy.ky);
  const sx = sourceRatio <= 1 ? larger : larger / sourceRatio;
  return { sx: sx * copy.kx, sy: sx * sourceRatio * copy.ky };
}

/** The bounding box of the largest metal region of the copy, as the pipeline finds the piece. */
function pieceBox(copy: CopyView) {
  const metal = new Uint8Array(copy.w * copy.h);
  for (let i = 0; i < metal.length; i++) metal[i] = copy.lum[i]! < METAL_BELOW ? 1 : 0;
  const { box } = findRegions(metal, copy.w, copy.h);
  return box.x1 >= box.x0 && box.y1 >= box.y0 ? box : undefined;
}

/** The least-squares slope of `v` against `u`. */
function slope(u: readonly number[], v: readonly number[]): number {
  const n = u.length;
  const mu = u.reduce((a, b) => a + b, 0) / n;
  const mv = v.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (u[i]! - mu) * (v[i]! - mv);
    den += (u[i]! - mu) ** 2;
  }
  return den > 0 ? num / den : 0;
}

export type { Place };
