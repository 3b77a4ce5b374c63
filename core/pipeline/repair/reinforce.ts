import type { Finding } from '../../contract/finding.ts';
import { finding, type FindingContext, type Location } from '../findings/wording.ts';
import type { StripRaster } from '../raster/raster.ts';
import { MAX_LOCATIONS } from '../findings/locate.ts';
import { isFloorTip, measurePoint, type MeasuredPoint } from '../measure/points.ts';
import { airRegions, isProtrusion, isTip, surveyMetal, type ThinPart } from '../measure/thin-metal.ts';
import type { Labels } from '../raster/components.ts';
import { findWebs, type Web } from '../measure/webs.ts';
import { widenWeb } from './widen-web.ts';

export interface ReinforceOptions {
  minOpeningMm: number;
  minMetalMm: number;
  /** Protrusions at most this wide are shaved, not thickened. */
  hairlineMm: number;
  /** Thin metal is widened to this width (above the floor, for the tracer's half-pixel). */
  neckTargetMm: number;
  /** A protrusion reaching at most this far beyond where it is floor-wide is a sharp tip, left as drawn. */
  maxTipMm: number;
}

/** Metal still under the floor: necks (thin parts that are not tips) and webs between two air regions. */
export interface ThinMetal {
  necks: ThinPart[];
  webs: Web[];
  /** The air regions they were measured against (widening a web needs its sides). */
  air: Labels;
  /** The necks that are points too long for a tip, measured with the floor's disc (see points.ts). */
  points?: MeasuredPoint[];
}

/** Finds the metal under the floor that is not a tip: hairline spurs apart, necks and webs. */
export function thinMetal(
  raster: StripRaster,
  options: ReinforceOptions,
  /** The air's regions, if labelled already (before metal was added is fine: see airSideAt). */
  air: Labels = airRegions(raster),
  /** See `surveyMetal`. */
  reach: 'margin' | 'floor' = 'margin',
): ThinMetal & { spurs: ThinPart[] } {
  const survey = surveyMetal(raster, options.minMetalMm, air, reach);
  // Tips are left as drawn: those the survey's pixel of margin reads as tips, and the dead ends the
  // floor's own disc finds within the allowance (see points.ts).
  const thin: ThinPart[] = [];
  const points: MeasuredPoint[] = [];
  for (const part of survey.thin) {
    if (isTip(part, options.maxTipMm, options.minMetalMm)) continue;
    const point = measurePoint(raster, part, options);
    if (point && isFloorTip(raster, point, options)) continue;
    thin.push(point ?? part);
    if (point) points.push(point);
  }
  const spurs = thin.filter((t) => isProtrusion(t) && t.widthMm <= options.hairlineMm);
  const px = Math.min(raster.mmPerPxX, raster.mmPerPxY);
  // The raster floor keeps one pixel of margin, as the disc's reach does (see depthForWidth).
  const webs = findWebs(raster, air, survey.grownAir, survey.depth, options.minMetalMm / px + 1);
  // A thin bar between two air regions is both a thin part and a web: as a web it is measured
  // place by place across it, so it is widened (and reported) as that.
  const acrossWebs = new Set(
    webs.flatMap((web) =>
      web.chords.map((c) => Math.round((c.ay + c.by) / 2) * raster.w + Math.round((c.ax + c.bx) / 2)),
    ),
  );
  const necks = thin.filter(
    (t) => !spurs.includes(t) && !(t.sides.length >= 2 && t.pixels.some((i) => acrossWebs.has(i))),
  );
  return { spurs, necks, webs, air, points: points.filter((p) => necks.includes(p)) };
}

/** Shaves hairline spurs off, in place: dead ends (one wide part, one air region) too thin to keep. */
export function shaveSpurs(raster: StripRaster, spurs: readonly ThinPart[], ctx: FindingContext): Finding[] {
  for (const spur of spurs) for (const i of spur.pixels) raster.data[i] = 0;
  if (spurs.length === 0) return [];
  const locations = spurs.slice(0, MAX_LOCATIONS).map((s) => s.at);
  return [finding('SPURS_SHAVED', { count: spurs.length }, ctx, { locations })];
}

/**
 * Widens every neck and web to the target width, in place, by eating into the air beside it, and
 * returns their places (for NECK_THICKENED). Widening only adds metal, so it makes nothing else
 * thin; the final check of the cutting file confirms the widths. Whether the air left is still
 * wide enough is the caller's to check.
 */
export function widenThinMetal(raster: StripRaster, thin: ThinMetal, targetMm: number): Location[] {
  const targetPx = targetMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  for (const web of thin.webs) widenWeb(raster, thin.air, web, targetPx);
  for (const neck of thin.necks) widenNeck(raster, neck, targetMm);
  return [...thin.necks.map((n) => n.at), ...thin.webs.map((w) => w.at)];
}

/** Metal on every air pixel whose centre lies within `radius` pixels of pixel (cx, cy)'s centre. */
function stampDisc(raster: StripRaster, cx: number, cy: number, radius: number): void {
  const { w, h, data } = raster;
  const r = Math.floor(radius);
  const r2 = radius * radius;
  for (let y = Math.max(0, cy - r); y <= Math.min(h - 1, cy + r); y++) {
    for (let x = Math.max(0, cx - r); x <= Math.min(w - 1, cx + r); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r2) data[y * w + x] = 1;
    }
  }
}

/**
 * Widens a thin part by growing its metal into the air beside it: by half the missing width on
 * each side, or by all of it where the part lies against the strip edge and can grow one way only.
 */
function widenNeck(raster: StripRaster, neck: ThinPart, targetMm: number): void {
  const { w, h, data } = raster;
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  const missing = Math.max(0, targetMm - neck.widthMm);
  const growPx = Math.max(1, (neck.atEdge ? missing : missing / 2) / px + 0.5);
  const edge: number[] = [];
  for (const i of neck.pixels) {
    const x = i % w;
    const y = (i - x) / w;
    const airBeside =
      (x > 0 && !data[i - 1]) || (x < w - 1 && !data[i + 1]) || (y > 0 && !data[i - w]) || (y < h - 1 && !data[i + w]);
    if (airBeside) edge.push(x, y);
  }
  for (let e = 0; e < edge.length; e += 2) stampDisc(raster, edge[e]!, edge[e + 1]!, growPx);
}
