import { componentBoxes, labelAt, labelComponents, type ComponentBox, type Labels } from './labels.ts';
import { depthForWidth, invert, minus, openMask } from './morphology.ts';
import type { StripRaster } from './raster.ts';

/** How each air region of the strip measures against the minimum opening. */
export interface AirSurvey {
  air: ReturnType<typeof labelComponents>;
  boxes: ComponentBox[];
  /** Per air region: 'edge' (touches the strip edge: cut away), or an opening's verdict. */
  verdict: ('edge' | 'fine' | 'narrow' | 'pinched')[];
  /** Air narrower than the floor (tips, slivers, pinches): filling it leaves only cuttable air. */
  residue: Uint8Array;
  /** Residue components that join two wide parts of one opening: where a slot is pinched. */
  pinches: ComponentBox[];
}

/**
 * Opens the air by a disc as wide as the minimum opening. An opening with nothing left is
 * narrower than the floor everywhere; one left in two or more parts is pinched somewhere;
 * otherwise only its tips are narrower, which the laser rounds anyway.
 */
export function surveyAir(raster: StripRaster, minOpeningMm: number): AirSurvey {
  const { w, h } = raster;
  const airMask = invert(raster.data);
  const air = labelComponents(airMask, w, h, 4);
  const widthPx = minOpeningMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const opened = openMask(airMask, w, h, depthForWidth(widthPx), false);
  const wide = labelComponents(opened, w, h, 4);
  const partsPerRegion = new Int32Array(air.count + 1);
  for (let k = 1; k <= wide.count; k++) partsPerRegion[labelAt(air, wide.first[k]!)]!++;
  const verdict: AirSurvey['verdict'] = ['edge'];
  for (let k = 1; k <= air.count; k++) {
    if (air.touchesBorder[k]) verdict.push('edge');
    else if (partsPerRegion[k] === 0) verdict.push('narrow');
    else if (partsPerRegion[k]! >= 2) verdict.push('pinched');
    else verdict.push('fine');
  }
  const residue = minus(airMask, opened);
  return { air, boxes: componentBoxes(air, w), verdict, residue, pinches: findPinches(residue, wide, w, h) };
}

/** Residue components touching two or more distinct wide parts. */
function findPinches(residue: Uint8Array, wide: Labels, w: number, h: number): ComponentBox[] {
  const parts = labelComponents(residue, w, h, 4);
  const boxes = componentBoxes(parts, w);
  const firstNeighbour = new Int32Array(parts.count + 1);
  const joins = new Uint8Array(parts.count + 1);
  const meet = (k: number, other: number) => {
    if (!other) return;
    if (!firstNeighbour[k]) firstNeighbour[k] = other;
    else if (firstNeighbour[k] !== other) joins[k] = 1;
  };
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    const y = Math.floor(start[r]! / w);
    for (let i = start[r]!; i < end[r]! && !joins[k]; i++) {
      const x = i - y * w;
      if (x > 0) meet(k, labelAt(wide, i - 1));
      if (x < w - 1) meet(k, labelAt(wide, i + 1));
      if (y > 0) meet(k, labelAt(wide, i - w));
      if (y < h - 1) meet(k, labelAt(wide, i + w));
    }
  }
  return boxes.filter((_, k) => k > 0 && joins[k]);
}

/** Turns the given air pixels into metal, in place. */
export function fill(raster: StripRaster, pixels: Uint8Array): void {
  for (let i = 0; i < pixels.length; i++) if (pixels[i]) raster.data[i] = 1;
}

/** Fills whole air regions by label, in place. */
export function fillRegions(raster: StripRaster, labels: Labels, which: Uint8Array): void {
  const { start, end, label } = labels.runs;
  for (let r = 0; r < label.length; r++) if (which[label[r]!]) raster.data.fill(1, start[r]!, end[r]!);
}
