import { depthsThroughPart } from './depth-through-part.ts';
import { distancesAt } from './distance-at.ts';
import type { Location } from './findings.ts';
import { discReach, floorDepth } from './morphology.ts';
import type { StripRaster } from './raster.ts';
import { locate } from './spots.ts';
import { isProtrusion, type ThinPart } from './thin-metal.ts';

/*
 * Points of metal (dead ends narrower than the floor) measured as the final check's rule reads
 * them: how far each pixel lies beyond what the floor's own disc reaches, through the point. The
 * survey of thin metal reaches with a pixel of margin, which leaves a straight point 0.2-0.5 mm more
 * than the rule does: a point that the final check passes as drawn is kept as drawn here too.
 */

export interface PointOptions {
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
  let [x0, y0, x1, y1] = [w, h, -1, -1];
  for (const i of part.pixels) {
    const x = i % w;
    const y = (i - x) / w;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  [x0, y0] = [Math.max(0, x0 - margin), Math.max(0, y0 - margin)];
  [x1, y1] = [Math.min(w - 1, x1 + margin), Math.min(h - 1, y1 + margin)];
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

/**
 * Points of metal too long to keep as drawn, where widening them would close the opening beside
 * them (a sliver between two strokes of a script letter, in its slot): the end of each beyond the
 * allowance less two pixels, as the floor's disc measures it, is shaved off when that end is a
 * hairline, so what stays is a tip. In place; returns the places whose points were trimmed (and
 * where their ends were, `shaved`) and the rest (refused as drawn).
 */
export function trimLongPoints(
  raster: StripRaster,
  places: readonly Location[],
  points: readonly MeasuredPoint[],
  options: PointOptions,
): { trimmed: Location[]; shaved: Location[]; left: Location[] } {
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  const keep = keepDepthPx(raster, options);
  const trimmed: Location[] = [];
  const shaved: Location[] = [];
  const left: Location[] = [];
  for (const at of places) {
    const point = points.find((p) => p.at === at);
    const end: number[] = [];
    let widthPx = 0;
    point?.pixels.forEach((i, m) => {
      if (point.floorDepthsPx[m]! <= keep) return;
      end.push(i);
      widthPx = Math.max(widthPx, 2 * (point.halfWidthsPx![m]! - 0.5));
    });
    if (end.length === 0 || widthPx > options.hairlineMm / px) {
      left.push(at);
      continue;
    }
    for (const i of end) raster.data[i] = 0;
    shaved.push(placeOf(raster, end, options.minMetalMm));
    trimmed.push(at);
  }
  return { trimmed, shaved, left };
}

/** Where some pixels are, as a finding names a place: a circle round their box (at least `minRadiusMm`). */
function placeOf(raster: StripRaster, pixels: readonly number[], minRadiusMm: number): Location {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (const i of pixels) {
    const x = i % raster.w;
    const y = (i - x) / raster.w;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return locate({ cx: (x0 + x1 + 1) / 2, cy: (y0 + y1 + 1) / 2, x0, y0, x1, y1 }, raster, minRadiusMm);
}
