import { componentBoxes, labelAt, type ComponentBox, type Labels } from '../raster/components.ts';
import { surveyAir, underFloor } from './openings.ts';
import type { StripRaster } from '../raster/raster.ts';
import type { Web } from './webs.ts';

/** Pixels of margin around the openings surveyed: more than the opening's disc reaches. */
const MARGIN = 8;

/**
 * `surveyAir` of only the openings beside widened webs, on a window around each web's sides:
 * whether widening left any of them narrower than the floor (`spoiled`), and their tips and slivers
 * to fill (raster indices). Widening only changed the air there, so on a strip with a few webs this
 * saves surveying all of it.
 */
export function surveyAroundWebs(
  raster: StripRaster,
  air: Labels,
  webs: readonly Web[],
  minOpeningMm: number,
): { spoiled: boolean; fill: number[] } {
  const { w, h } = raster;
  const boxes = componentBoxes(air, w);
  const fill: number[] = [];
  for (const web of webs) {
    const box = windowOf(
      web.sides.filter((k) => k > 0).map((k) => boxes[k]!),
      web,
      w,
      h,
    );
    const cw = box.x1 - box.x0 + 1;
    const ch = box.y1 - box.y0 + 1;
    const data = new Uint8Array(cw * ch);
    for (let y = 0; y < ch; y++) {
      const from = (box.y0 + y) * w + box.x0;
      data.set(raster.data.subarray(from, from + cw), y * cw);
    }
    const survey = surveyAir(
      { w: cw, h: ch, data, mmPerPxX: raster.mmPerPxX, mmPerPxY: raster.mmPerPxY },
      minOpeningMm,
    );
    // Every opening wholly inside the window: the widened ones (whole, or in parts if widening cut
    // one in two) and any other, which filling uncuttable openings already left wide. Regions cut by the window's
    // edge are judged in a window of their own.
    if (survey.verdict.some(underFloor)) return { spoiled: true, fill: [] };
    for (let j = 0; j < survey.residue.length; j++) {
      if (!survey.residue[j] || survey.verdict[labelAt(survey.air, j)] === 'edge') continue;
      fill.push((box.y0 + Math.floor(j / cw)) * w + box.x0 + (j % cw));
    }
  }
  return { spoiled: false, fill };
}

/** The window holding the given openings' boxes and the web's places, with a margin, clamped to the strip. */
function windowOf(boxes: ComponentBox[], web: Web, w: number, h: number) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
  }
  for (const c of web.chords) {
    x0 = Math.min(x0, c.ax, c.bx);
    y0 = Math.min(y0, c.ay, c.by);
    x1 = Math.max(x1, c.ax, c.bx);
    y1 = Math.max(y1, c.ay, c.by);
  }
  return {
    x0: Math.max(0, x0 - MARGIN),
    y0: Math.max(0, y0 - MARGIN),
    x1: Math.min(w - 1, x1 + MARGIN),
    y1: Math.min(h - 1, y1 + MARGIN),
  };
}
