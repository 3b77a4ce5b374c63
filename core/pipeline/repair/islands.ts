import type { Finding } from '../../contract/finding.ts';
import { bridgeFeet } from './bridge-feet.ts';
import { distanceTransform } from '../raster/distance.ts';
import { finding, type FindingContext, type Location } from '../findings/wording.ts';
import { componentBoxes, componentMask, forRunsOf, type Labels } from '../raster/components.ts';
import { pixelDistanceMm, type StripRaster } from '../raster/raster.ts';
import { locate, MAX_LOCATIONS } from '../findings/locate.ts';

/** What bridging islands needs of the framing options. */
interface IslandOptions {
  minOpeningMm: number;
  minMetalMm: number;
  bridgeMm: number;
  reachMm: number;
  removableIslandMm2: number;
}

/**
 * Decisions §4 step 6, islands: every metal part but the largest (the main piece) is held by a bar
 * `bridgeMm` wide to the nearest metal already held, when it comes within `reachMm` of it
 * (ISLAND_BRIDGED), removed when it is farther and at most `removableIslandMm2` (ISLAND_REMOVED),
 * left for validation to refuse otherwise. In place.
 *
 * Held metal grows round by round: first the main piece, then every island whose bar to it fits
 * (comes near nothing else beside it), then islands whose bar fits only to one of those. The facets
 * of a diamond cut in outline are islands side by side, and the lowest one meets the main piece
 * only at the diamond's bottom point, where three channels meet and no bar fits; it is held across a
 * channel by the facet beside it. An island with no fitting bar anywhere gets its best bar to the
 * held metal, and the final check of the file refuses it if that bar leaves something under a floor.
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
  const held = componentMask(parts, main, w * h);
  const isHeld = new Uint8Array(parts.count + 1);
  isHeld[main] = 1;
  const bars: (Bridge | undefined)[] = new Array(parts.count + 1);
  const owner = ownerOfPixels(parts, w * h);
  const nearestMetal = nearestOtherPart(parts, owner, raster);
  const px = Math.max(raster.mmPerPxX, raster.mmPerPxY);
  for (let round = 0; ; round++) {
    const toHeld = distanceTransform(held, w, h, { withNearest: true });
    const best = nearestApproach(parts, isHeld, toHeld.nearest, raster);
    const feet = bridgeFeet(parts, isHeld, held, best, toHeld.nearest, raster, options);
    const reachable = (k: number) => !isHeld[k] && best[k]! <= options.reachMm && feet.foot[k]! >= 0;
    // An island waits for its nearest metal to be held when that is another island (nearer by more
    // than a pixel): its bar goes across the gap it was drawn with, not round to the main piece.
    const fitting: number[] = [];
    for (let k = 1; k <= parts.count; k++) {
      if (reachable(k) && !feet.crowded[k] && best[k]! <= nearestMetal[k]! + px) fitting.push(k);
    }
    // No island's bar fits any more: the rest get their best bar to what is held, as it is.
    const last = fitting.length === 0 || round === MAX_ROUNDS - 1;
    const now = last ? Array.from({ length: parts.count }, (_, n) => n + 1).filter(reachable) : fitting;
    for (const k of now) {
      const from = feet.foot[k]!;
      const to = toHeld.nearest[from]!;
      const atIsland = (p: number) => owner[p] === k;
      const atHeld = (p: number) => held[p] === 1;
      for (const p of barPixels(raster, from, to, feet.widthMm[k]!, atIsland, atHeld)) raster.data[p] = held[p] = 1;
      forRunsOf(parts, k, (s, e) => held.fill(1, s, e));
      bars[k] = { from, to };
    }
    for (const k of now) isHeld[k] = 1;
    if (last || isHeld.every((on, k) => on || k === 0)) break;
  }
  const boxes = componentBoxes(parts, w);
  const bridged: Location[] = [];
  const removed: Location[] = [];
  const pxArea = raster.mmPerPxX * raster.mmPerPxY;
  for (let k = 1; k <= parts.count; k++) {
    if (k === main) continue;
    const at = locate(boxes[k]!, raster, options.minMetalMm);
    const bar = bars[k];
    if (bar) {
      // The place covers the bar too, to its far end: what was filled beside it is named with it.
      const far = Math.hypot(
        ((bar.to % w) + 0.5) * raster.mmPerPxX - at.x,
        (Math.floor(bar.to / w) + 0.5) * raster.mmPerPxY - at.y,
      );
      bridged.push({ ...at, r: Math.max(at.r, Number((far + options.bridgeMm).toFixed(2))) });
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

/** A bar drawn: from a pixel of its island to the held metal's pixel nearest it. */
interface Bridge {
  from: number;
  to: number;
}

/** Rounds of holding islands by islands held before: a chain of facets is a few deep. */
const MAX_ROUNDS = 8;

/**
 * Per part, how near the nearest other part comes (millimetres, between pixel centres): where two
 * neighbouring pixels' nearest metal belongs to different parts, the gap between those two metal
 * pixels. The metal is the parts' pixels, as `raster` holds them before any bar is drawn.
 */
function nearestOtherPart(parts: Labels, owner: Int32Array, raster: StripRaster): Float64Array {
  const { w, h } = raster;
  const { nearest } = distanceTransform(raster.data, w, h, { withNearest: true });
  const best = new Float64Array(parts.count + 1).fill(Infinity);
  const gap = (a: number, b: number) => {
    const ka = owner[a]!;
    const kb = owner[b]!;
    if (ka === kb) return;
    const d = pixelDistanceMm(raster, a, b);
    if (d < best[ka]!) best[ka] = d;
    if (d < best[kb]!) best[kb] = d;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const a = nearest[p]!;
      if (a < 0) continue;
      if (x + 1 < w && nearest[p + 1]! >= 0 && nearest[p + 1] !== a) gap(a, nearest[p + 1]!);
      if (y + 1 < h && nearest[p + w]! >= 0 && nearest[p + w] !== a) gap(a, nearest[p + w]!);
    }
  }
  return best;
}

/** Each pixel's part (0 for air). */
function ownerOfPixels(parts: Labels, size: number): Int32Array {
  const owner = new Int32Array(size);
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) owner.fill(label[r]!, start[r]!, end[r]!);
  return owner;
}

/** Per island not held yet, how near it comes to the held metal (millimetres; Infinity for the held). */
function nearestApproach(parts: Labels, isHeld: Uint8Array, nearest: Int32Array, raster: StripRaster): Float64Array {
  const best = new Float64Array(parts.count + 1).fill(Infinity);
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (isHeld[k]) continue;
    for (let i = start[r]!; i < end[r]!; i++) {
      const j = nearest[i]!;
      if (j < 0) continue;
      const d = pixelDistanceMm(raster, i, j);
      if (d < best[k]!) best[k] = d;
    }
  }
  return best;
}

/**
 * Metal on every pixel whose centre lies within half the width of the segment between two pixel
 * centres; beyond either end, only where the first metal farther out along the bar, within its half
 * width, is the metal that end meets (`atFrom`, `atTo`). A round cap would stick out behind an
 * island thinner than the bar and narrow the opening there; this cap fills only the wedges between
 * the bar's end and the metal it meets.
 */
function barPixels(
  raster: StripRaster,
  from: number,
  to: number,
  widthMm: number,
  atFrom: (p: number) => boolean,
  atTo: (p: number) => boolean,
): number[] {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy, data } = raster;
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
  const len = Math.hypot(dx, dy);
  const step = Math.min(sx, sy) / 2;
  /** Whether the first metal within `half` of (px, py), going out along the bar by (ux, uy), is `end`'s. */
  const endBeyond = (px: number, py: number, ux: number, uy: number, end: (p: number) => boolean): boolean => {
    for (let d = step; d <= half; d += step) {
      const x = Math.floor((px + ux * d) / sx);
      const y = Math.floor((py + uy * d) / sy);
      if (x < 0 || y < 0 || x >= w || y >= h) return false;
      if (data[y * w + x]) return end(y * w + x);
    }
    return false;
  };
  const pixels: number[] = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = (x + 0.5) * sx;
      const py = (y + 0.5) * sy;
      const along = len === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / (len * len);
      const t = Math.max(0, Math.min(1, along));
      if (Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) > half) continue;
      if (along === t || data[y * w + x]) pixels.push(y * w + x);
      else if (len > 0) {
        const out = along < 0 ? -1 : 1;
        if (endBeyond(px, py, (out * dx) / len, (out * dy) / len, along < 0 ? atFrom : atTo)) pixels.push(y * w + x);
      }
    }
  }
  return pixels;
}
