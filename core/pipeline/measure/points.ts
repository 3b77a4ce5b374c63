import { depthsThroughPart } from './depth-through-part.ts';
import { distancesAt } from '../raster/distance-at.ts';
import type { Location } from '../findings/wording.ts';
import { discReach, floorDepth } from '../raster/morphology.ts';
import type { StripRaster } from '../raster/raster.ts';
import { locate } from '../findings/locate.ts';
import { isProtrusion, type ThinPart } from './thin-metal.ts';

/*
 * Points of metal (dead ends narrower than the floor) measured as the final check's rule reads
 * them: how far each pixel lies beyond what the floor's own disc reaches, through the point. The
 * survey of thin metal reaches with a pixel of margin, which leaves a straight point 0.2-0.5 mm more
 * than the rule does: a point that the final check passes as drawn is kept as drawn here too.
 */

interface PointOptions {
  minMetalMm: number;
  /** How far a point may reach beyond where the floor's disc reaches into it. */
  maxTipMm: number;
  /** The end of a point is trimmed only where it is at most this wide: a hairline, as a spur. */
  hairlineMm: number;
}

/** A dead end with each pixel's depth beyond the floor's disc's reach, through the part (pixels; 0 where it reaches). */
export type MeasuredPoint = ThinPart & { floorDepthsPx: Float64Array };

/**
 * The dead end measured with the floor's own disc: a tip when no pixel lies more than the allowance,
 * less two pixels (the tracer may move the edge a fraction of one), beyond its reach. Undefined for
 * a part that is no dead end.
 */
export function measurePoint(raster: StripRaster, part: ThinPart, options: PointOptions): MeasuredPoint | undefined {
  if (!isProtrusion(part) || !part.halfWidthsPx) return undefined;
  return { ...part, floorDepthsPx: floorDepths(raster, part, options.minMetalMm) };
}

export function isFloorTip(raster: StripRaster, point: MeasuredPoint, options: PointOptions): boolean {
  return point.floorDepthsPx.every((d) => d <= keepDepthPx(raster, options));
}

const keepDepthPx = (raster: StripRaster, options: PointOptions): number => {
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  return options.maxTipMm / px - 2;
};

/**
 * Per pixel of a dead end, how far beyond the floor's disc's reach it lies through the part, in
 * pixels: the disc's reach computed on a window round the part, wide enough that the window's edge
 * (taken as air) changes no disc that reaches within the part.
 */
function floorDepths(raster: StripRaster, part: ThinPart, minMetalMm: number): Float64Array {
  const { w, h, data } = raster;
  const depth = floorDepth(minMetalMm / Math.min(raster.mmPerPxX, raster.mmPerPxY));
  const margin = 2 * depth + 3;
  const box = boxOf(part.pixels, w);
  const [x0, y0] = [Math.max(0, box.x0 - margin), Math.max(0, box.y0 - margin)];
  const [x1, y1] = [Math.min(w - 1, box.x1 + margin), Math.min(h - 1, box.y1 + margin)];
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  const window = new Uint8Array(cw * ch);
  for (let y = y0; y <= y1; y++) window.set(data.subarray(y * w + x0, y * w + x1 + 1), (y - y0) * cw);
  const reached = discReach(window, cw, ch, depth, true);
  const local = part.pixels.map((i) => {
    const x = i % w;
    return ((i - x) / w - y0) * cw + x - x0;
  });
  const beyond = local.filter((k) => !reached[k]);
  const depths = new Float64Array(part.pixels.length);
  if (beyond.length === 0) return depths;
  const toReached = distancesAt(reached, false, cw, ch, beyond, false);
  const through = depthsThroughPart(beyond, toReached, cw);
  const at = new Map(beyond.map((k, m) => [k, through[m]!]));
  local.forEach((k, m) => (depths[m] = at.get(k) ?? 0));
  return depths;
}

/** The end of a point to trim: the pixels beyond the allowance, at the place that named the point. */
interface PointEnd {
  at: Location;
  pixels: number[];
}

/**
 * Points of metal too long to keep as drawn, where widening them would close the opening beside
 * them (a sliver between two strokes of a script letter, in its slot): the end of each beyond the
 * allowance less two pixels, as the floor's disc measures it, when that end is a hairline, so what
 * stays once it is shaved (`shaveEnds`) is a tip. The other places are left (refused as drawn).
 */
export function hairlineEnds(
  raster: StripRaster,
  places: readonly Location[],
  points: readonly MeasuredPoint[],
  options: PointOptions,
): { ends: PointEnd[]; left: Location[] } {
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  const keep = keepDepthPx(raster, options);
  const ends: PointEnd[] = [];
  const left: Location[] = [];
  for (const at of places) {
    const point = points.find((p) => p.at === at);
    const pixels: number[] = [];
    let widthPx = 0;
    point?.pixels.forEach((i, m) => {
      if (point.floorDepthsPx[m]! <= keep) return;
      pixels.push(i);
      widthPx = Math.max(widthPx, 2 * (point.halfWidthsPx![m]! - 0.5));
    });
    if (pixels.length === 0 || widthPx > options.hairlineMm / px) left.push(at);
    else ends.push({ at, pixels });
  }
  return { ends, left };
}

/** Shaves the ends off, in place; returns where each was, as a finding names a place (a circle round its box). */
export function shaveEnds(raster: StripRaster, ends: readonly PointEnd[], minRadiusMm: number): Location[] {
  return ends.map(({ pixels }) => {
    for (const i of pixels) raster.data[i] = 0;
    const { x0, y0, x1, y1 } = boxOf(pixels, raster.w);
    return locate({ cx: (x0 + x1 + 1) / 2, cy: (y0 + y1 + 1) / 2, x0, y0, x1, y1 }, raster, minRadiusMm);
  });
}

/** The box of some pixels, in pixel columns and rows. */
function boxOf(pixels: readonly number[], w: number): { x0: number; y0: number; x1: number; y1: number } {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (const i of pixels) {
    const x = i % w;
    const y = (i - x) / w;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return { x0, y0, x1, y1 };
}
