import type { Location } from './findings.ts';
import type { StripRaster } from './raster.ts';
import { locate } from './spots.ts';
import { surveyMetal, type ThinPart } from './thin-metal.ts';

export interface TrimOptions {
  minMetalMm: number;
  /** The end of a point is trimmed only where it is at most this wide: a hairline, as a spur. */
  hairlineMm: number;
  /** How far a point may reach beyond where the floor's disc reaches into it. */
  maxTipMm: number;
}

/**
 * Points of metal too long to keep as drawn, where widening them would close the opening beside
 * them (a sliver between two strokes of a script letter, in its slot): the end of each such point
 * beyond its tip allowance, measured as the final check measures it (from what the floor's own
 * disc reaches, through the point itself), is shaved off when that end is a hairline, so what
 * stays is a tip. In place; returns the places whose points were trimmed (and where their ends
 * were, `shaved`), those that are tips as the floor's disc measures them (kept as drawn), and the
 * rest (their metal is refused as drawn).
 */
export function trimLongPoints(
  raster: StripRaster,
  places: readonly Location[],
  options: TrimOptions,
): { trimmed: Location[]; shaved: Location[]; kept: Location[]; left: Location[] } {
  if (places.length === 0) return { trimmed: [], shaved: [], kept: [], left: [] };
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  // Two pixels short of the allowance: the traced edge may move a pixel's fraction, and the final
  // check then measures it exactly.
  const keepDepthPx = (options.maxTipMm - 2 * px) / px;
  const thin = surveyMetal(raster, options.minMetalMm, undefined, 'floor').thin;
  const trimmed: Location[] = [];
  const shaved: Location[] = [];
  const kept: Location[] = [];
  const left: Location[] = [];
  for (const at of places) {
    const here = thin.filter((t) => inPlace(raster, t, at));
    // Only points: metal under the floor as drawn that is no dead end is a neck to refuse.
    const ends = here.every((t) => t.reach) ? here.map((t) => endBeyond(t, keepDepthPx)) : [];
    const long = ends.filter((end) => end.pixels.length > 0);
    if (ends.length === 0 || long.some((end) => end.widthPx > options.hairlineMm / px)) {
      left.push(at);
      continue;
    }
    // Points within the allowance as the floor's own disc measures them are kept as drawn (the
    // pixel of margin read them as necks): the final check measures them exactly.
    for (const end of long) {
      for (const i of end.pixels) raster.data[i] = 0;
      shaved.push(placeOf(raster, end.pixels, options.minMetalMm));
    }
    (long.length > 0 ? trimmed : kept).push(at);
  }
  return { trimmed, shaved, kept, left };
}

/** Whether a thin part has a pixel within a place's circle. */
function inPlace(raster: StripRaster, part: ThinPart, at: Location): boolean {
  const { w, mmPerPxX: sx, mmPerPxY: sy } = raster;
  return part.pixels.some((i) => {
    const x = i % w;
    const y = (i - x) / w;
    return Math.hypot((x + 0.5) * sx - at.x, (y + 0.5) * sy - at.y) <= at.r;
  });
}

/** The pixels of a dead end deeper than `keepDepthPx`, and how wide they are (as `surveyMetal` measures a part). */
function endBeyond(part: ThinPart, keepDepthPx: number): { pixels: number[]; widthPx: number } {
  const { depthsPx, halfWidthsPx } = part.reach!;
  const pixels: number[] = [];
  let widthPx = 0;
  part.pixels.forEach((i, m) => {
    if (depthsPx[m]! <= keepDepthPx) return;
    pixels.push(i);
    widthPx = Math.max(widthPx, 2 * (halfWidthsPx[m]! - 0.5));
  });
  return { pixels, widthPx };
}

/** Where some pixels are, as a finding names a place: their middle, a circle round their box (at least `minRadiusMm`). */
function placeOf(raster: StripRaster, pixels: readonly number[], minRadiusMm: number): Location {
  const box = { cx: 0, cy: 0, x0: Infinity, y0: Infinity, x1: -1, y1: -1 };
  for (const i of pixels) {
    const x = i % raster.w;
    const y = (i - x) / raster.w;
    box.cx += x + 0.5;
    box.cy += y + 0.5;
    box.x0 = Math.min(box.x0, x);
    box.x1 = Math.max(box.x1, x);
    box.y0 = Math.min(box.y0, y);
    box.y1 = Math.max(box.y1, y);
  }
  box.cx /= pixels.length;
  box.cy /= pixels.length;
  return locate(box, raster, minRadiusMm);
}
