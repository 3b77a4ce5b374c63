import { depthsThroughPart } from './depth-through-part.ts';
import { distancesAt } from '../raster/distance-at.ts';
import type { Location } from '../findings/wording.ts';
import { componentBoxes, labelAt, labelComponents, type Labels } from '../raster/components.ts';
import { giveMasks, takeMask } from '../raster/mask-pool.ts';
import { depthForWidth, discReach, floorDepth, minus, onPixels } from '../raster/morphology.ts';
import type { StripRaster } from '../raster/raster.ts';
import { locate } from '../findings/locate.ts';

/** A part of the metal narrower than the floor. */
export interface ThinPart {
  pixels: number[];
  /** How many separate wide parts of the metal it touches: 2+ means removing it splits the metal. */
  attachments: number;
  /**
   * The air regions it touches (-1 for the outside: beyond the strip edge, or any region reaching
   * it): two or more means it stands between them, so removing it would merge them (a bar between
   * two openings, a rim between an opening and the edge).
   */
  sides: number[];
  /** Whether it reaches the strip edge: it can then only be widened inwards. */
  atEdge: boolean;
  /** Its widest point, in millimetres. */
  widthMm: number;
  /** How far it reaches from the wide metal, in millimetres: short for a corner or a tip. */
  depthMm: number;
  at: Location;
  /** For a dead end (one wide part, one air region), per pixel (as `pixels`): its distance to the air, in pixels. */
  halfWidthsPx?: Float64Array;
}

/** The thin parts of the metal, and the air grown by half the floor (all but the metal's core), for `findWebs`. */
interface MetalSurvey {
  thin: ThinPart[];
  grownAir: Uint8Array;
  /** The erosion depth in pixels that the core and the disc's reach used. */
  depth: number;
}

/** The air regions of a raster, 4-connected (the pipeline's openings). */
export const airRegions = (raster: StripRaster): Labels => {
  const air = new Uint8Array(raster.data.length);
  for (let i = 0; i < air.length; i++) air[i] = raster.data[i] ? 0 : 1;
  return labelComponents(air, raster.w, raster.h, 4);
};

/**
 * The air side a pixel stands for: its region, -1 for the outside (beyond the strip, or any region
 * reaching it), 0 for metal. `air` may have been labelled before metal was added (filled specks,
 * bridges, widened necks): the raster says what is metal now.
 */
export function airSideAt(air: Labels, raster: StripRaster, x: number, y: number): number {
  const { w, h } = raster;
  if (x < 0 || y < 0 || x >= w || y >= h) return -1;
  const i = y * w + x;
  if (raster.data[i]) return 0;
  const k = labelAt(air, i);
  return k === 0 ? 0 : air.touchesBorder[k] ? -1 : k;
}

/** Per air region, a pixel of it that is still air (its label may predate added metal), or -1. */
export function airPixels(air: Labels, raster: StripRaster): Int32Array {
  const out = new Int32Array(air.count + 1).fill(-1);
  const { start, end, label } = air.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (out[k]! >= 0) continue;
    for (let i = start[r]!; i < end[r]!; i++) {
      if (!raster.data[i]) {
        out[k] = i;
        break;
      }
    }
  }
  return out;
}

/**
 * `airSideAt` for every pixel of a window (x0, y0, cw × ch; it may reach beyond the strip), row by
 * row from the labels' runs instead of a search per pixel.
 */
export function airSidesIn(
  air: Labels,
  raster: StripRaster,
  x0: number,
  y0: number,
  cw: number,
  ch: number,
): Int32Array {
  const { w, h, data } = raster;
  const out = new Int32Array(cw * ch);
  const { start, end, label, rowFirst } = air.runs;
  for (let cy = 0; cy < ch; cy++) {
    const y = y0 + cy;
    const row = cy * cw;
    if (y < 0 || y >= h) {
      out.fill(-1, row, row + cw);
      continue;
    }
    if (x0 < 0) out.fill(-1, row, row + Math.min(cw, -x0));
    if (x0 + cw > w) out.fill(-1, row + Math.max(0, w - x0), row + cw);
    for (let r = rowFirst[y]!; r < rowFirst[y + 1]!; r++) {
      const from = Math.max(start[r]! - y * w, x0);
      const to = Math.min(end[r]! - y * w, x0 + cw);
      if (from >= to) continue;
      const side = air.touchesBorder[label[r]!] ? -1 : label[r]!;
      for (let x = from; x < to; x++) if (!data[y * w + x]) out[row + x - x0] = side;
    }
  }
  return out;
}

/**
 * Finds what a disc as wide as the minimum metal reaches in the metal (the strip's outside counts
 * as air) and reports what it does not reach, leaving out what is only a rounded-off corner.
 */
export function surveyMetal(
  raster: StripRaster,
  minMetalMm: number,
  air: Labels = airRegions(raster),
  /**
   * 'margin' (the default): with the raster's pixel of margin, so metal at the floor counts as thin
   * too and is widened (the tracer may take half a pixel off each side). 'floor': only metal the
   * floor's own disc does not reach, what is under the floor as drawn.
   */
  reach: 'margin' | 'floor' = 'margin',
): MetalSurvey {
  const { w, h, data } = raster;
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  const widthPx = minMetalMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const depth = reach === 'margin' ? depthForWidth(widthPx) : floorDepth(widthPx);
  const grownAir = takeMask(w * h);
  const wideMask = discReach(data, w, h, depth, true, grownAir);
  const residue = minus(data, wideMask);
  const parts = labelComponents(residue, w, h, 8);
  if (parts.count === 0) {
    giveMasks(residue, wideMask);
    return { thin: [], grownAir, depth };
  }
  const wide = labelComponents(wideMask, w, h, 8);
  // The thin parts are a small share of the metal: distances are measured at their pixels only.
  const residuePixels = onPixels(residue);
  const toWide = distancesAt(wideMask, false, w, h, residuePixels, false);
  const toAir = distancesAt(data, true, w, h, residuePixels, true);
  const deepest = new Float64Array(parts.count + 1);
  const widest = new Float64Array(parts.count + 1);
  const pixels: number[][] = Array.from({ length: parts.count + 1 }, () => []);
  const touching: Set<number>[] = Array.from({ length: parts.count + 1 }, () => new Set());
  const sides: Set<number>[] = Array.from({ length: parts.count + 1 }, () => new Set());
  // The parts' runs cover exactly the residue pixels, in the same raster order.
  const { end: runEnd, label: runLabel } = parts.runs;
  for (let p = 0, r = 0; p < residuePixels.length; p++) {
    const i = residuePixels[p]!;
    while (runEnd[r]! <= i) r++;
    const k = runLabel[r]!;
    pixels[k]!.push(i);
    if (toWide[p]! > deepest[k]!) deepest[k] = toWide[p]!;
    if (toAir[p]! > widest[k]!) widest[k] = toAir[p]!;
    const x = i % w;
    const y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        // Air across a side (4-connected, as the openings are); wide metal across a side or a corner.
        if (dx === 0 || dy === 0) {
          const side = airSideAt(air, raster, nx, ny);
          if (side !== 0) sides[k]!.add(side);
        }
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const other = labelAt(wide, ny * w + nx);
        if (other) touching[k]!.add(other);
      }
    }
  }
  const boxes = componentBoxes(parts, w);
  const thin: ThinPart[] = [];
  for (let k = 1; k <= parts.count; k++) {
    // One pixel of depth is the grid, not the drawing.
    if (Math.sqrt(deepest[k]!) <= 1.5) continue;
    // A dead end's depth decides whether it is a tip: measured through itself (see depthsThroughPart).
    const facing = { attachments: touching[k]!.size, sides: [...sides[k]!] };
    const deadEnd = isProtrusion(facing) && Number.isFinite(deepest[k]!);
    // The residue's measures at this part's pixels (both lists are in raster order).
    const at = deadEnd ? positionsIn(residuePixels, pixels[k]!) : undefined;
    const depths =
      at &&
      depthsThroughPart(
        pixels[k]!,
        at.map((p) => toWide[p]!),
        w,
      );
    const depthPx = depths ? depths.reduce((a, b) => Math.max(a, b), 0) : Math.sqrt(deepest[k]!);
    const depthMm = Number.isFinite(depthPx) ? depthPx * px : Infinity;
    const box = boxes[k]!;
    thin.push({
      pixels: pixels[k]!,
      ...facing,
      atEdge: box.x0 === 0 || box.y0 === 0 || box.x1 === w - 1 || box.y1 === h - 1,
      widthMm: Math.max(px, 2 * (Math.sqrt(widest[k]!) - 0.5) * px),
      depthMm,
      at: locate(box, raster, minMetalMm),
      ...(at && { halfWidthsPx: Float64Array.from(at, (p) => Math.sqrt(toAir[p]!)) }),
    });
  }
  giveMasks(residue, wideMask);
  return { thin, grownAir, depth };
}

/** Where each of `pixels` (ascending) stands in `all` (ascending, holding them all). */
function positionsIn(all: Int32Array, pixels: readonly number[]): number[] {
  const out: number[] = [];
  let lo = 0;
  for (const i of pixels) {
    let hi = all.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    out.push(lo);
  }
  return out;
}

/** A part that sticks out from one wide part into one air region: removing it changes no topology. */
export const isProtrusion = (part: Pick<ThinPart, 'attachments' | 'sides'>): boolean =>
  part.attachments <= 1 && part.sides.length <= 1;

/**
 * A sharp tip of solid metal: a protrusion that reaches at most `maxTipMm` beyond where the metal
 * is `minMetalMm` wide. The depth is measured from the metal the disc reaches, which near a point reaches up
 * to half the floor past that width, so half the floor is added: the cutting file's final check
 * measures the reach from the floor-wide chord itself and must agree.
 */
export const isTip = (part: ThinPart, maxTipMm: number, minMetalMm: number): boolean =>
  isProtrusion(part) && part.depthMm + minMetalMm / 2 <= maxTipMm;
