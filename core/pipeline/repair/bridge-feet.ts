import { labelAt, type Labels } from '../raster/components.ts';
import { pixelDistanceMm, type StripRaster } from '../raster/raster.ts';

/*
 * Where an island's bridge goes. The bar runs from a pixel of the island (its foot) to the held
 * metal's pixel nearest it (the main piece, and the islands and bars holding on to it), `bridgeMm`
 * wide. Where it goes decides whether it fits: a bar from the vertex of a hexagon sitting in a
 * snowflake's hub hangs over the channels on either side of the vertex and narrows them under the
 * floor, while one across a flat side of the same hexagon, facing the hub's wall, closes only the
 * gap it spans. And it must go to the same place on islands of the same shape, however the working
 * pixels fall on each.
 */

/** How much farther than its nearest point an island's foot may lie from the held metal (mm). */
const FOOT_SLACK_MM = 0.3;
/** Candidate feet weighed per island: a stretch with more is thinned evenly. */
const MAX_FEET = 32;
/** Lines across the bar its length is measured along: its sides, its axis and between. */
const BAR_LINES = 5;

interface FootOptions {
  bridgeMm: number;
  reachMm: number;
  minOpeningMm: number;
  minMetalMm: number;
}

/** Per island, where its bridge starts, how wide it is, and whether even that bar comes near other metal. */
interface Feet {
  /** The foot's pixel; -1 for held metal and islands out of reach. */
  foot: Int32Array;
  widthMm: Float64Array;
  crowded: Uint8Array;
}

/**
 * Per island, the foot of its bridge (-1 for held metal and islands out of reach): among the
 * island's pixels within `FOOT_SLACK_MM` of its least distance to the held metal, the one whose bar
 * is shortest across its whole width, so that along both its sides the island and the held metal
 * face each other (a flat facing a wall, a letter's top under a rail) rather than one of them
 * turning away into an opening the bar would hang over, and that comes near no other metal beside
 * it. Of equally good feet, the one nearest their middle.
 */
export function bridgeFeet(
  parts: Labels,
  /** Per component, whether it is held already. */
  isHeld: Uint8Array,
  /** Per pixel, whether it is held metal (held components and the bars drawn to them). */
  held: Uint8Array,
  best: Float64Array,
  nearestHeld: Int32Array,
  raster: StripRaster,
  options: FootOptions,
): Feet {
  const { w } = raster;
  const distance = (i: number): number => {
    const j = nearestHeld[i]!;
    return j < 0 ? Infinity : pixelDistanceMm(raster, i, j);
  };
  const near: number[][] = Array.from({ length: parts.count + 1 }, () => []);
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (isHeld[k] || !(best[k]! <= options.reachMm)) continue;
    const limit = Math.min(options.reachMm, best[k]! + FOOT_SLACK_MM);
    for (let i = start[r]!; i < end[r]!; i++) if (distance(i) <= limit) near[k]!.push(i);
  }
  const feet: Feet = {
    foot: new Int32Array(parts.count + 1).fill(-1),
    widthMm: new Float64Array(parts.count + 1),
    crowded: new Uint8Array(parts.count + 1),
  };
  // A bar a working pixel over the metal floor, where the full bridge would crowd what is beside it
  // (the final check holds it to the floor exactly).
  const narrowMm = options.minMetalMm + Math.max(raster.mmPerPxX, raster.mmPerPxY);
  for (let k = 1; k <= parts.count; k++) {
    const all = near[k]!;
    if (all.length === 0) continue;
    const step = Math.ceil(all.length / MAX_FEET);
    const candidates = all.filter((_, n) => n % step === 0);
    const measure = (widthMm: number) =>
      candidates.map((f) => barLength(parts, k, held, f, nearestHeld[f]!, raster, { ...options, bridgeMm: widthMm }));
    let widthMm = options.bridgeMm;
    let bars = measure(widthMm);
    if (bars.every((bar) => bar.crowded) && narrowMm < options.bridgeMm) {
      const narrow = measure(narrowMm);
      if (narrow.some((bar) => !bar.crowded)) [widthMm, bars] = [narrowMm, narrow];
    }
    const score = (bar: Bar) => bar.length + (bar.crowded ? CROWDED : 0);
    const least = Math.min(...bars.map(score));
    const tied = candidates.filter((_, n) => score(bars[n]!) <= least + Math.max(raster.mmPerPxX, raster.mmPerPxY));
    feet.foot[k] = middleOf(tied, w);
    feet.widthMm[k] = widthMm;
    feet.crowded[k] = least >= CROWDED ? 1 : 0;
  }
  return feet;
}

/**
 * How long a bar is at its longest across its width (mm), and whether it comes near other metal
 * beside it or lands on a thin part of the island (either way it would narrow something under a floor).
 */
interface Bar {
  length: number;
  crowded: boolean;
}

/** `barLength`'s labels for held metal and for islands not held yet (components are numbered from 1). */
const HELD = -1;
const OTHER = -2;

/** What coming near other metal weighs against a bar, in millimetres of length: more than any reach. */
const CROWDED = 100;

/**
 * How long the bar from `foot` to `to` is at its longest across its width: on lines parallel to its
 * axis, from the island's last pixel to the held metal's first. A side that finds no island (the
 * island is narrower than the bar there) or no held metal within reach counts as the whole reach.
 */
function barLength(
  parts: Labels,
  island: number,
  held: Uint8Array,
  foot: number,
  to: number,
  raster: StripRaster,
  options: FootOptions,
): Bar {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const fx = ((foot % w) + 0.5) * sx;
  const fy = (Math.floor(foot / w) + 0.5) * sy;
  const tx = ((to % w) + 0.5) * sx;
  const ty = (Math.floor(to / w) + 0.5) * sy;
  const length = Math.hypot(tx - fx, ty - fy) || Math.min(sx, sy);
  const dx = (tx - fx) / length;
  const dy = (ty - fy) / length;
  const half = options.bridgeMm / 2;
  const stepMm = Math.min(sx, sy);
  /** The island's label, HELD for held metal, OTHER for other islands, 0 for air or off the strip. */
  const labelOf = (x: number, y: number): number => {
    const px = Math.floor(x / sx);
    const py = Math.floor(y / sy);
    if (px < 0 || py < 0 || px >= w || py >= h) return 0;
    const i = py * w + px;
    if (held[i]) return HELD;
    const k = labelAt(parts, i);
    return k === island ? island : k > 0 ? OTHER : 0;
  };
  const whole = options.reachMm + options.bridgeMm;
  // Beside the bar, a floor's width out: metal there, of the island past the bar's middle, held
  // short of it or of another island anywhere, is something else the bar would come too close to
  // (the vertex of the next shape across a channel), not the wall it lands on. Held metal past the
  // middle is that wall only where it joins the bar's landing place nearby: an arm of the piece
  // reaching past the bar's side, across a channel from where the bar lands, is not.
  let crowded = false;
  const clearance = half + options.minOpeningMm + Math.max(sx, sy);
  let wall: ((x: number, y: number) => boolean) | undefined;
  const isWall = (x: number, y: number): boolean =>
    (wall ??= heldAround(held, raster, to, Math.hypot(length, clearance) + Math.max(sx, sy)))(x, y);
  for (const o of [-clearance, clearance]) {
    for (let t = 0; t <= length && !crowded; t += stepMm) {
      const x = fx - dy * o + dx * t;
      const y = fy + dx * o + dy * t;
      const k = labelOf(x, y);
      crowded = (k === island && t > length / 2) || (k === HELD && (t < length / 2 || !isWall(x, y))) || k === OTHER;
    }
  }
  let longest = 0;
  let onThin = false;
  for (let line = 0; line < BAR_LINES; line++) {
    const o = -half + (line * 2 * half) / (BAR_LINES - 1);
    const ox = fx - dy * o;
    const oy = fy + dx * o;
    let islandAt = Number.NaN;
    let heldAt = Number.NaN;
    for (let t = -options.minMetalMm - half; t <= length + options.bridgeMm; t += stepMm) {
      const k = labelOf(ox + dx * t, oy + dy * t);
      if (k === island) islandAt = t;
      else if (k === HELD && !Number.isNaN(islandAt)) {
        heldAt = t;
        break;
      }
    }
    longest = Math.max(longest, Number.isNaN(heldAt) ? whole : heldAt - islandAt);
    // Along its axis the bar must land on the island's body, a floor's width deep at least, not on a
    // thin tapering stroke it would turn into a neck between the bar and the rest of the island.
    if (line === (BAR_LINES - 1) / 2 && !Number.isNaN(islandAt)) {
      const behind = islandAt - options.minMetalMm;
      onThin = labelOf(ox + dx * behind, oy + dy * behind) !== island;
    }
  }
  return { length: longest, crowded: crowded || onThin };
}

/**
 * Which held pixels within `radiusMm` of `from` (a held pixel) join it through held pixels that
 * stay that near (a disc, so that metal joining it only round a corner farther off does not count):
 * the metal a bar lands on, as far as it matters beside the bar.
 */
function heldAround(
  held: Uint8Array,
  raster: StripRaster,
  from: number,
  radiusMm: number,
): (xMm: number, yMm: number) => boolean {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const cx = from % w;
  const cy = Math.floor(from / w);
  const x0 = Math.max(0, cx - Math.ceil(radiusMm / sx));
  const y0 = Math.max(0, cy - Math.ceil(radiusMm / sy));
  const x1 = Math.min(w - 1, cx + Math.ceil(radiusMm / sx));
  const y1 = Math.min(h - 1, cy + Math.ceil(radiusMm / sy));
  const bw = x1 - x0 + 1;
  const reached = new Uint8Array(bw * (y1 - y0 + 1));
  const queue = [from];
  reached[(cy - y0) * bw + (cx - x0)] = 1;
  while (queue.length > 0) {
    const p = queue.pop()!;
    const px = p % w;
    const py = Math.floor(p / w);
    for (const [nx, ny] of [
      [px - 1, py],
      [px + 1, py],
      [px, py - 1],
      [px, py + 1],
    ] as const) {
      if (nx < x0 || ny < y0 || nx > x1 || ny > y1 || !held[ny * w + nx]) continue;
      if (Math.hypot((nx - cx) * sx, (ny - cy) * sy) > radiusMm) continue;
      const local = (ny - y0) * bw + (nx - x0);
      if (reached[local]) continue;
      reached[local] = 1;
      queue.push(ny * w + nx);
    }
  }
  return (xMm, yMm) => {
    const x = Math.floor(xMm / sx);
    const y = Math.floor(yMm / sy);
    return x >= x0 && y >= y0 && x <= x1 && y <= y1 && reached[(y - y0) * bw + (x - x0)] === 1;
  };
}

/** The pixel nearest the centre of a set of pixels. */
function middleOf(pixels: readonly number[], w: number): number {
  const cx = pixels.reduce((a, i) => a + (i % w), 0) / pixels.length;
  const cy = pixels.reduce((a, i) => a + Math.floor(i / w), 0) / pixels.length;
  let foot = pixels[0]!;
  let nearest = Infinity;
  for (const i of pixels) {
    const d = Math.hypot((i % w) - cx, Math.floor(i / w) - cy);
    if (d < nearest) [foot, nearest] = [i, d];
  }
  return foot;
}
