import type { Finding } from '../contract/finding.ts';
import { bridgeFeet } from './bridge-feet.ts';
import { distanceTransform } from './distance.ts';
import { finding, type FindingContext, type Location } from './findings.ts';
import { componentBoxes, componentMask, forRunsOf, type Labels } from './labels.ts';
import type { StripRaster } from './raster.ts';
import { locate, MAX_LOCATIONS } from './spots.ts';

/** What bridging islands needs of the framing options. */
export interface IslandOptions {
  minOpeningMm: number;
  minMetalMm: number;
  bridgeMm: number;
  reachMm: number;
  removableIslandMm2: number;
}

/**
 * Decisions §4 step 6, islands: every metal part but the largest (the main piece) is joined to it
 * by a bar `bridgeMm` wide when it comes within `reachMm` of it (ISLAND_BRIDGED), removed when it
 * is farther and at most `removableIslandMm2` (ISLAND_REMOVED), left for validation to refuse
 * otherwise. In place.
 */
export function bridgeIslands(
  raster: StripRaster,
  parts: Labels,
  options: IslandOptions,
  ctx: FindingContext,
): Finding[] {
  const { w, h } = raster;
  if (parts.count <= 1) return [];
  let main = 1;
  for (let k = 2; k <= parts.count; k++) if (parts.size[k]! > parts.size[main]!) main = k;
  const mainMask = componentMask(parts, main, w * h);
  const toMain = distanceTransform(mainMask, w, h, { withNearest: true });
  const distance = (i: number): number => {
    const j = toMain.nearest[i]!;
    if (j < 0) return Infinity;
    return Math.hypot(((i % w) - (j % w)) * raster.mmPerPxX, (Math.floor(i / w) - Math.floor(j / w)) * raster.mmPerPxY);
  };
  // Per island, how near it comes to the main piece (millimetres).
  const best = new Float64Array(parts.count + 1).fill(Infinity);
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (k === main) continue;
    for (let i = start[r]!; i < end[r]!; i++) best[k] = Math.min(best[k]!, distance(i));
  }
  const bestPixel = bridgeFeet(parts, main, best, toMain.nearest, raster, options);
  const boxes = componentBoxes(parts, w);
  const bridged: Location[] = [];
  const removed: Location[] = [];
  const pxArea = raster.mmPerPxX * raster.mmPerPxY;
  for (let k = 1; k <= parts.count; k++) {
    if (k === main) continue;
    const at = locate(boxes[k]!, raster, options.minMetalMm);
    if (best[k]! <= options.reachMm && bestPixel[k]! >= 0) {
      const from = bestPixel[k]!;
      drawBar(raster, from, toMain.nearest[from]!, options.bridgeMm);
      bridged.push(at);
    } else if (parts.size[k]! * pxArea <= options.removableIslandMm2) {
      forRunsOf(parts, k, (from, to) => raster.data.fill(0, from, to));
      removed.push(at);
    }
  }
  const found: Finding[] = [];
  if (bridged.length > 0) {
    const facts = { count: bridged.length, bridgeMm: options.bridgeMm };
    found.push(finding('ISLAND_BRIDGED', facts, ctx, { locations: bridged.slice(0, MAX_LOCATIONS) }));
  }
  if (removed.length > 0) {
    found.push(
      finding('ISLAND_REMOVED', { count: removed.length }, ctx, { locations: removed.slice(0, MAX_LOCATIONS) }),
    );
  }
  return found;
}

/** Metal on every pixel whose centre lies within half the width of the segment between two pixel centres. */
function drawBar(raster: StripRaster, from: number, to: number, widthMm: number): void {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const ax = ((from % w) + 0.5) * sx;
  const ay = (Math.floor(from / w) + 0.5) * sy;
  const bx = ((to % w) + 0.5) * sx;
  const by = (Math.floor(to / w) + 0.5) * sy;
  const half = widthMm / 2;
  const x0 = Math.max(0, Math.floor((Math.min(ax, bx) - half) / sx));
  const x1 = Math.min(w - 1, Math.ceil((Math.max(ax, bx) + half) / sx));
  const y0 = Math.max(0, Math.floor((Math.min(ay, by) - half) / sy));
  const y1 = Math.min(h - 1, Math.ceil((Math.max(ay, by) + half) / sy));
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = (x + 0.5) * sx;
      const py = (y + 0.5) * sy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
      if (Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) <= half) raster.data[y * w + x] = 1;
    }
  }
}
