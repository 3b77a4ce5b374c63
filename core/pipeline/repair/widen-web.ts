import { distanceTransform } from '../raster/distance.ts';
import type { Labels } from '../raster/components.ts';
import type { StripRaster } from '../raster/raster.ts';
import { airSidesIn } from '../measure/thin-metal.ts';
import type { Web } from '../measure/webs.ts';

/**
 * Widens a web to `targetPx` pixels of metal, in place, by giving each air side back the air
 * within a clearance of the other: every pixel of one side nearer the other side's air than the
 * clearance becomes metal. The new edge is an offset of the other side, smooth and without stray
 * pixels of air. Two openings each give way by half the missing width; an opening against the
 * outside (the strip edge, or a region reaching it) gives way by all of it, as the outside cannot.
 * `air` labels the raster's air from before any widening (widening only adds metal).
 */
export function widenWeb(raster: StripRaster, air: Labels, web: Web, targetPx: number): void {
  const [a, b] = web.sides;
  let gap = Infinity;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const c of web.chords) {
    gap = Math.min(gap, c.gapPx);
    x0 = Math.min(x0, c.ax, c.bx);
    y0 = Math.min(y0, c.ay, c.by);
    x1 = Math.max(x1, c.ax, c.bx);
    y1 = Math.max(y1, c.ay, c.by);
  }
  const oneSided = b < 0;
  // Centre-to-centre clearance; the metal between two pixels is that less one pixel.
  const clearance = oneSided ? targetPx + 1 : (targetPx + Math.max(0, gap) + 2) / 2;
  const m = Math.ceil(clearance) + 2;
  const box = { x0: x0 - m, y0: y0 - m, x1: x1 + m, y1: y1 + m };
  // Both sides measured against the other as it was, then both given way.
  const fill = giveWay(raster, air, box, a, b, clearance);
  if (!oneSided) fill.push(...giveWay(raster, air, box, b, a, clearance));
  for (const i of fill) raster.data[i] = 1;
}

/** The pixels of air side `side` within `clearance` of air side `from`, inside `box`. */
function giveWay(
  raster: StripRaster,
  air: Labels,
  box: { x0: number; y0: number; x1: number; y1: number },
  side: number,
  from: number,
  clearance: number,
): number[] {
  const { w, h } = raster;
  const cw = box.x1 - box.x0 + 1;
  const ch = box.y1 - box.y0 + 1;
  const sides = airSidesIn(air, raster, box.x0, box.y0, cw, ch);
  const feature = new Uint8Array(cw * ch);
  for (let j = 0; j < feature.length; j++) if (sides[j] === from) feature[j] = 1;
  const { d2 } = distanceTransform(feature, cw, ch);
  const limit = clearance * clearance;
  const out: number[] = [];
  for (let cy = 0; cy < ch; cy++) {
    const y = box.y0 + cy;
    if (y < 0 || y >= h) continue;
    for (let cx = 0; cx < cw; cx++) {
      const x = box.x0 + cx;
      const j = cy * cw + cx;
      if (x >= 0 && x < w && sides[j] === side && d2[j]! < limit) out.push(y * w + x);
    }
  }
  return out;
}
