import { distanceTransform } from './distance.ts';
import type { Location } from './findings.ts';
import { componentBoxes, labelAt, labelComponents, type Labels } from './labels.ts';
import { invert } from './morphology.ts';
import type { StripRaster } from './raster.ts';
import { airPixelOf, airSideAt } from './thin-metal.ts';

/** One place across a web: the two air pixels either side (x, y in pixels; a side beyond the strip edge lies outside it). */
export interface WebChord {
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** Metal between them in pixels: their centres' distance less one pixel. */
  gapPx: number;
}

/**
 * Metal narrower than the floor between two different air regions: a web between two
 * neighbouring openings, or a rim between an opening and the strip edge or outline. Opening by a
 * disc misses these where both sides are convex (two round holes): discs from either side cover
 * the narrowest point. Located by the places across it narrower than the floor.
 */
export interface Web {
  sides: [number, number];
  chords: WebChord[];
  widthMm: number;
  at: Location;
}

/**
 * Finds every web between two air regions that is narrower than `floorPx` pixels. The metal's core
 * (the pixels at least `depth` from any air, the outside counting as air) is given: its complement
 * is the air grown by `depth`, and two air regions closer than the floor grow into one. Only when
 * that happens are the places measured, around the openings involved only.
 */
export function findWebs(raster: StripRaster, air: Labels, core: Uint8Array, depth: number, floorPx: number): Web[] {
  const { w, h } = raster;
  const grown = labelComponents(invert(core), w, h, 4);
  // The air sides inside each grown region; a grown region reaching the border holds the outside.
  const firstSide = new Int32Array(grown.count + 1);
  const merged = new Uint8Array(grown.count + 1);
  for (let g = 1; g <= grown.count; g++) if (grown.touchesBorder[g]) firstSide[g] = -1;
  // Each opening's grown region, from a pixel of it that is still air (labels may predate fills).
  const grownOf = new Int32Array(air.count + 1);
  for (let k = 1; k <= air.count; k++) {
    if (air.touchesBorder[k]) continue;
    const i = raster.data[air.first[k]!] ? airPixelOf(air, raster, k) : air.first[k]!;
    if (i < 0) continue;
    const g = (grownOf[k] = labelAt(grown, i));
    if (firstSide[g] === 0) firstSide[g] = k;
    else if (firstSide[g] !== k) merged[g] = 1;
  }
  const involved: number[] = [];
  for (let k = 1; k <= air.count; k++) if (grownOf[k] && merged[grownOf[k]!]) involved.push(k);
  if (involved.length === 0) return [];
  const boxes = componentBoxes(air, w);
  const chordsByPair = new Map<string, { sides: [number, number]; chords: WebChord[] }>();
  const reach = 2 * depth + 2;
  for (const k of involved) {
    const b = boxes[k]!;
    const crop = { x0: Math.max(0, b.x0 - reach), y0: Math.max(0, b.y0 - reach) };
    const x1 = Math.min(w - 1, b.x1 + reach);
    const y1 = Math.min(h - 1, b.y1 + reach);
    for (const chord of websAround(raster, air, k, crop.x0, crop.y0, x1, y1, floorPx)) {
      const key = `${chord.sides[0]},${chord.sides[1]}`;
      const entry = chordsByPair.get(key) ?? { sides: chord.sides, chords: [] };
      entry.chords.push(chord.chord);
      chordsByPair.set(key, entry);
    }
  }
  const webs: Web[] = [];
  for (const { sides, chords } of chordsByPair.values()) {
    for (const group of nearbyGroups(chords, 2 * depth)) webs.push(web(raster, sides, group));
  }
  return webs;
}

/**
 * The narrow places between opening k and any other air side, within a crop around k: each metal
 * pixel takes the air side of its nearest air pixel (an exact transform of the crop, a frame of
 * outside pixels where the crop meets the strip edge), and two neighbouring metal pixels of
 * different sides, one of them k, mark a place across the web. Pairs of two openings are kept by
 * the lower-numbered one only.
 */
function websAround(
  raster: StripRaster,
  air: Labels,
  k: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  floorPx: number,
): { sides: [number, number]; chord: WebChord }[] {
  const { w, h, data } = raster;
  // The crop with a one-pixel frame: outside pixels where it lies beyond the strip, else nothing.
  const cw = x1 - x0 + 3;
  const ch = y1 - y0 + 3;
  const feature = new Uint8Array(cw * ch);
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const x = x0 + cx - 1;
      const y = y0 + cy - 1;
      const outside = x < 0 || y < 0 || x >= w || y >= h;
      const inCrop = x >= x0 && x <= x1 && y >= y0 && y <= y1;
      if (outside || (inCrop && !data[y * w + x])) feature[cy * cw + cx] = 1;
    }
  }
  const { nearest } = distanceTransform(feature, cw, ch, { withNearest: true });
  const sideOf = new Int32Array(cw * ch);
  const side = (j: number): number => {
    if (j < 0) return 0;
    if (sideOf[j] === 0) sideOf[j] = airSideAt(air, raster, x0 + (j % cw) - 1, y0 + Math.floor(j / cw) - 1) || -2;
    return sideOf[j] === -2 ? 0 : sideOf[j]!;
  };
  const found: { sides: [number, number]; chord: WebChord }[] = [];
  const inFrame = (j: number) => {
    const x = j % cw;
    const y = (j - x) / cw;
    return x === 0 || y === 0 || x === cw - 1 || y === ch - 1;
  };
  for (let cy = 1; cy < ch - 1; cy++) {
    for (let cx = 1; cx < cw - 1; cx++) {
      const i = cy * cw + cx;
      if (feature[i]) continue;
      const a = nearest[i]!;
      // Across the web: to the next metal pixel's nearest air (right and down, each pair once),
      // or straight into the air beside it (all four ways: a web one pixel wide has no metal pair).
      for (const j of [i + 1, i + cw, i - 1, i - cw]) {
        const air = feature[j] === 1;
        if (!air && (j < i || inFrame(j))) continue;
        const b = air ? j : nearest[j]!;
        const sa = side(a);
        const sb = side(b);
        if (sa === sb || sa === 0 || sb === 0 || (sa !== k && sb !== k)) continue;
        const other = sa === k ? sb : sa;
        if (other > 0 && other < k) continue;
        const ax = (a % cw) + x0 - 1;
        const ay = Math.floor(a / cw) + y0 - 1;
        const bx = (b % cw) + x0 - 1;
        const by = Math.floor(b / cw) + y0 - 1;
        const gapPx = Math.hypot(ax - bx, ay - by) - 1;
        if (gapPx >= floorPx) continue;
        const chord = sa === k ? { ax, ay, bx, by, gapPx } : { ax: bx, ay: by, bx: ax, by: ay, gapPx };
        found.push({ sides: [k, other], chord });
      }
    }
  }
  return found;
}

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
  const at: Location = {
    x: round(((narrowest.ax + narrowest.bx) / 2 + 0.5) * sx),
    y: round(((narrowest.ay + narrowest.by) / 2 + 0.5) * sy),
    r: round(Math.max(0.3, Math.hypot((maxX - minX + 1) * sx, (maxY - minY + 1) * sy) / 2)),
  };
  return { sides, chords, widthMm: Math.max(0, narrowest.gapPx) * Math.min(sx, sy), at };
}
