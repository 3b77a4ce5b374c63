import { distanceTransform } from '../raster/distance.ts';
import type { Location } from '../findings/wording.ts';
import { componentBoxes, labelAt, labelComponents, type Labels } from '../raster/components.ts';
import type { StripRaster } from '../raster/raster.ts';
import { airPixels, airSidesIn } from './thin-metal.ts';

/** One place across a web: the two air pixels either side (x, y in pixels; a side beyond the strip edge lies outside it). */
interface WebChord {
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** Metal between them in pixels: their centres' distance less one pixel. */
  gapPx: number;
}

/**
 * Metal narrower than the floor between two different air regions: a web between two
 * neighbouring openings, or a rim between an opening and the strip edge or outline. A disc's reach
 * misses these where both sides are convex (two round holes): discs from either side cover
 * the narrowest point. Located by the places across it narrower than the floor.
 */
export interface Web {
  sides: [number, number];
  chords: WebChord[];
  widthMm: number;
  at: Location;
}

/**
 * Finds every web between two air regions that is narrower than `floorPx` pixels. The air grown
 * by `depth` (every pixel but the metal's core, the pixels at least `depth` from any air, the
 * outside counting as air) is given: two air regions closer than the floor grow into one. Only
 * when that happens are the places measured, around the openings involved only.
 */
export function findWebs(
  raster: StripRaster,
  air: Labels,
  grownAir: Uint8Array,
  depth: number,
  floorPx: number,
): Web[] {
  const { w, h } = raster;
  const grown = labelComponents(grownAir, w, h, 4);
  // The air sides inside each grown region; a grown region reaching the border holds the outside.
  const firstSide = new Int32Array(grown.count + 1);
  const merged = new Uint8Array(grown.count + 1);
  for (let g = 1; g <= grown.count; g++) if (grown.touchesBorder[g]) firstSide[g] = -1;
  // Each opening's grown region, from a pixel of it that is still air (labels may predate fills).
  const grownOf = new Int32Array(air.count + 1);
  const still = airPixels(air, raster);
  for (let k = 1; k <= air.count; k++) {
    if (air.touchesBorder[k]) continue;
    const i = still[k]!;
    if (i < 0) continue;
    const g = (grownOf[k] = labelAt(grown, i));
    if (firstSide[g] === 0) firstSide[g] = k;
    else if (firstSide[g] !== k) merged[g] = 1;
  }
  const involved: number[] = [];
  for (let k = 1; k <= air.count; k++) if (grownOf[k] && merged[grownOf[k]!]) involved.push(k);
  if (involved.length === 0) return [];
  const chordsByPair = new Map<string, { sides: [number, number]; chords: WebChord[] }>();
  const collect = (found: { sides: [number, number]; chord: WebChord }[]) => {
    for (const { sides, chord } of found) {
      const key = `${sides[0]},${sides[1]}`;
      const entry = chordsByPair.get(key) ?? { sides, chords: [] };
      entry.chords.push(chord);
      chordsByPair.set(key, entry);
    }
  };
  const boxes = componentBoxes(air, w);
  const reach = 2 * depth + 2;
  const windows = involved.map((k) => {
    const b = boxes[k]!;
    const [x0, y0] = [Math.max(0, b.x0 - reach), Math.max(0, b.y0 - reach)];
    return { k, x0, y0, x1: Math.min(w - 1, b.x1 + reach), y1: Math.min(h - 1, b.y1 + reach) };
  });
  const cropArea = windows.reduce((sum, c) => sum + (c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1), 0);
  if (cropArea > (w * h) / 2) {
    // Most of the strip is involved (a lace too fine for its size): one transform of it all.
    const isInvolved = new Uint8Array(air.count + 1);
    for (const k of involved) isInvolved[k] = 1;
    const all = { x0: 0, y0: 0, x1: w - 1, y1: h - 1 };
    collect(websIn(raster, air, all, floorPx, (a, b) => isInvolved[a] === 1 || isInvolved[b] === 1));
  } else {
    // Each pair of openings once, from the lower-numbered one's window.
    const own = (k: number) => (a: number, b: number) => (a === k && (b < 0 || b > k)) || (b === k && (a < 0 || a > k));
    for (const c of windows) collect(websIn(raster, air, c, floorPx, own(c.k)));
  }
  const webs: Web[] = [];
  for (const { sides, chords } of chordsByPair.values()) {
    for (const group of nearbyGroups(chords, 2 * depth)) webs.push(web(raster, sides, group));
  }
  return webs;
}

/**
 * The narrow places between two different air sides accepted by `wanted`, within a window of the
 * strip: each metal pixel takes the air side of its nearest air pixel (an exact transform of the
 * window, with a frame of outside pixels where it meets the strip edge), and two neighbouring
 * metal pixels of different sides, or a metal pixel and the air beside it, mark a place across a
 * web. Each place comes with its sides in one order: an opening first, the lower-numbered one first
 * of two openings.
 */
function websIn(
  raster: StripRaster,
  air: Labels,
  { x0, y0, x1, y1 }: { x0: number; y0: number; x1: number; y1: number },
  floorPx: number,
  wanted: (a: number, b: number) => boolean,
): { sides: [number, number]; chord: WebChord }[] {
  const cw = x1 - x0 + 3;
  const ch = y1 - y0 + 3;
  const sides = airSidesIn(air, raster, x0 - 1, y0 - 1, cw, ch);
  const feature = new Uint8Array(cw * ch);
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const j = cy * cw + cx;
      const frame = cx === 0 || cy === 0 || cx === cw - 1 || cy === ch - 1;
      if (frame ? sides[j] === -1 && isOutside(raster, x0 + cx - 1, y0 + cy - 1) : sides[j] !== 0) feature[j] = 1;
    }
  }
  const { nearest } = distanceTransform(feature, cw, ch, { withNearest: true });
  const found: { sides: [number, number]; chord: WebChord }[] = [];
  // One place across: a metal pixel whose nearest air is a (of side sa) and its neighbour j, metal or air.
  const across = (a: number, sa: number, j: number): void => {
    const b = feature[j] === 1 ? j : nearest[j]!;
    const sb = b < 0 ? 0 : sides[b]!;
    if (sa === sb || sb === 0 || !wanted(sa, sb)) return;
    const ax = (a % cw) + x0 - 1;
    const ay = Math.floor(a / cw) + y0 - 1;
    const bx = (b % cw) + x0 - 1;
    const by = Math.floor(b / cw) + y0 - 1;
    const gapPx = Math.hypot(ax - bx, ay - by) - 1;
    if (gapPx >= floorPx) return;
    const aFirst = sb < 0 || (sa > 0 && sa < sb);
    found.push(
      aFirst
        ? { sides: [sa, sb], chord: { ax, ay, bx, by, gapPx } }
        : { sides: [sb, sa], chord: { ax: bx, ay: by, bx: ax, by: ay, gapPx } },
    );
  };
  for (let cy = 1; cy < ch - 1; cy++) {
    for (let cx = 1; cx < cw - 1; cx++) {
      const i = cy * cw + cx;
      if (feature[i]) continue;
      const a = nearest[i]!;
      const sa = a < 0 ? 0 : sides[a]!;
      if (sa === 0) continue;
      // Across the web: to the next metal pixel's nearest air (right and down, each pair once, not
      // into the frame), or straight into the air beside it (all four ways: a web one pixel wide
      // has no metal pair).
      if (feature[i + 1] || cx + 1 < cw - 1) across(a, sa, i + 1);
      if (feature[i + cw] || cy + 1 < ch - 1) across(a, sa, i + cw);
      if (feature[i - 1]) across(a, sa, i - 1);
      if (feature[i - cw]) across(a, sa, i - cw);
    }
  }
  return found;
}

const isOutside = (raster: StripRaster, x: number, y: number) => x < 0 || y < 0 || x >= raster.w || y >= raster.h;

/** Splits chords into groups whose midpoints lie within `spacing` pixels of another in the group. */
function nearbyGroups(chords: WebChord[], spacing: number): WebChord[][] {
  const mid = (c: WebChord) => [(c.ax + c.bx) / 2, (c.ay + c.by) / 2] as const;
  const groups: WebChord[][] = [];
  const group = new Int32Array(chords.length).fill(-1);
  for (let i = 0; i < chords.length; i++) {
    if (group[i]! >= 0) continue;
    group[i] = groups.length;
    const members = [chords[i]!];
    for (let m = 0; m < members.length; m++) {
      const [mx, my] = mid(members[m]!);
      for (let j = 0; j < chords.length; j++) {
        if (group[j]! >= 0) continue;
        const [x, y] = mid(chords[j]!);
        if (Math.hypot(x - mx, y - my) <= spacing) {
          group[j] = groups.length;
          members.push(chords[j]!);
        }
      }
    }
    groups.push(members);
  }
  return groups;
}

function web(raster: StripRaster, sides: [number, number], chords: WebChord[]): Web {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  let minGap = Infinity;
  for (const c of chords) {
    minGap = Math.min(minGap, c.gapPx);
    minX = Math.min(minX, c.ax, c.bx);
    maxX = Math.max(maxX, c.ax, c.bx);
    minY = Math.min(minY, c.ay, c.by);
    maxY = Math.max(maxY, c.ay, c.by);
  }
  // Of the narrowest places (within half a pixel), the one nearest the middle of the web.
  const [mx, my] = [(minX + maxX) / 2, (minY + maxY) / 2];
  const off = (c: WebChord) => Math.hypot((c.ax + c.bx) / 2 - mx, (c.ay + c.by) / 2 - my);
  const narrowest = chords.filter((c) => c.gapPx <= minGap + 0.5).reduce((a, b) => (off(b) < off(a) ? b : a));
  const sx = raster.mmPerPxX;
  const sy = raster.mmPerPxY;
  const round = (v: number) => Number(v.toFixed(2));
  // Centred on the middle of the web, the circle covers all of it (framing undoes a widening within
  // it): round the narrowest place, which may lie near one end of a long web, it left the other end
  // out, and the air framing filled beside it there went unnamed.
  const at: Location = {
    x: round((mx + 0.5) * sx),
    y: round((my + 0.5) * sy),
    r: round(Math.max(0.3, Math.hypot((maxX - minX + 1) * sx, (maxY - minY + 1) * sy) / 2)),
  };
  return { sides, chords, widthMm: Math.max(0, narrowest.gapPx) * Math.min(sx, sy), at };
}
