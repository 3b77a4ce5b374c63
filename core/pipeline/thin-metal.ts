import { distancesAt } from './distance-at.ts';
import type { Location } from './findings.ts';
import { componentBoxes, labelAt, labelComponents } from './labels.ts';
import { depthForWidth, minus, onPixels, openMask } from './morphology.ts';
import type { StripRaster } from './raster.ts';
import { locate } from './spots.ts';

/** A part of the metal narrower than the floor. */
export interface ThinPart {
  pixels: number[];
  /** How many wide parts of the metal it touches: 0 or 1 for a protrusion, 2+ for a neck. */
  attachments: number;
  /** Its widest point, in millimetres. */
  widthMm: number;
  /** How far it reaches from the wide metal, in millimetres: short for a corner or a tip. */
  depthMm: number;
  at: Location;
}

/**
 * Opens the metal by a disc as wide as the minimum metal (the strip's outside counts as air)
 * and reports what does not survive, leaving out what is only a rounded-off corner.
 */
export function surveyMetal(raster: StripRaster, minMetalMm: number): { thin: ThinPart[] } {
  const { w, h, data } = raster;
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  const widthPx = minMetalMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const wideMask = openMask(data, w, h, depthForWidth(widthPx), true);
  const residue = minus(data, wideMask);
  const parts = labelComponents(residue, w, h, 8);
  if (parts.count === 0) return { thin: [] };
  const wide = labelComponents(wideMask, w, h, 8);
  // The thin parts are a small share of the metal: distances are measured at their pixels only.
  const residuePixels = onPixels(residue);
  const toWide = distancesAt(wideMask, false, w, h, residuePixels, false);
  const toAir = distancesAt(data, true, w, h, residuePixels, true);
  const deepest = new Float64Array(parts.count + 1);
  const widest = new Float64Array(parts.count + 1);
  const pixels: number[][] = Array.from({ length: parts.count + 1 }, () => []);
  const touching: Set<number>[] = Array.from({ length: parts.count + 1 }, () => new Set());
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
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const other = labelAt(wide, ny * w + nx);
        if (other) touching[k]!.add(other);
      }
    }
  }
  const boxes = componentBoxes(parts, w);
  const thin: ThinPart[] = [];
  for (let k = 1; k <= parts.count; k++) {
    const depthMm = Number.isFinite(deepest[k]!) ? Math.sqrt(deepest[k]!) * px : Infinity;
    // One pixel of depth is the grid, not the drawing.
    if (depthMm <= 1.5 * px) continue;
    thin.push({
      pixels: pixels[k]!,
      attachments: touching[k]!.size,
      widthMm: Math.max(px, 2 * (Math.sqrt(widest[k]!) - 0.5) * px),
      depthMm,
      at: locate(boxes[k]!, raster, minMetalMm),
    });
  }
  return { thin };
}

/** A sharp tip of solid metal is short; a spur reaches out. */
export const isTip = (part: ThinPart, maxTipMm: number): boolean => part.attachments <= 1 && part.depthMm <= maxTipMm;
