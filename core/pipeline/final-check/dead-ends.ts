import type { Location } from '../findings/wording.ts';
import { depthForWidth, discReach, invert } from '../raster/morphology.ts';
import type { StripRaster } from '../raster/raster.ts';
import { UNITS_PER_MM } from './rings.ts';
import type { NarrowChord } from './widths.ts';

/*
 * An opening that narrows to a dead end (a shallow corner where a letter's sloping top meets a rail,
 * a star's long point) is a tip, however gently it tapers: the part narrower than the floor is
 * filled and said so. Filling uncuttable openings takes what its discs can tell on the working
 * pixels; where the cutting file still holds a narrow chord of air, the air beyond it is looked at
 * on the raster: when it ends within a tip's reach, it is that tip's point, and it is filled. A
 * chord with air beyond it on both sides that goes on (a pinch) or reaches farther (a narrow arm
 * drawn so) is left for the check to refuse.
 */

interface DeadEnds {
  /** The raster with the dead ends filled (a copy), or undefined when there are none. */
  raster?: StripRaster;
  /** Where each filled dead end lies, for OPENING_REMOVED. */
  filled: Location[];
}

/**
 * Fills, on a copy of the raster, the air beyond each narrow chord of air that ends within
 * `tipExtentMm` of the chord (see the module comment).
 */
export function fillDeadEnds(
  raster: StripRaster,
  chords: readonly NarrowChord[],
  options: { minOpeningMm: number; tipExtentMm: number },
): DeadEnds {
  const { w, h, mmPerPxX: sx, mmPerPxY: sy } = raster;
  const tipExtentMm = options.tipExtentMm;
  // Air wider than the floor, with the raster's pixel of margin: what a point's mouth is.
  const wide = discReach(invert(raster.data), w, h, depthForWidth(options.minOpeningMm / Math.min(sx, sy)), false);
  const wideBeside = (x: number, y: number, ux: number, uy: number): boolean => {
    const x0 = Math.max(0, Math.floor((x - tipExtentMm) / sx));
    const x1 = Math.min(w - 1, Math.ceil((x + tipExtentMm) / sx));
    const y0 = Math.max(0, Math.floor((y - tipExtentMm) / sy));
    const y1 = Math.min(h - 1, Math.ceil((y + tipExtentMm) / sy));
    for (let py = y0; py <= y1; py++) {
      for (let px = x0; px <= x1; px++) {
        const dx = (px + 0.5) * sx - x;
        const dy = (py + 0.5) * sy - y;
        if (wide[py * w + px] && dx * ux + dy * uy > 0 && Math.hypot(dx, dy) <= tipExtentMm) return true;
      }
    }
    return false;
  };
  let data: Uint8Array | undefined;
  const filled: Location[] = [];
  // The widest first: nearest a point's mouth, its pocket holds those of the narrower chords beyond.
  for (const chord of [...chords].sort((a, b) => b.width - a.width)) {
    if (chord.kind !== 'opening') continue;
    const source = data ?? raster.data;
    const ax = chord.vx / UNITS_PER_MM;
    const ay = chord.vy / UNITS_PER_MM;
    const bx = chord.qx / UNITS_PER_MM;
    const by = chord.qy / UNITS_PER_MM;
    const length = Math.hypot(bx - ax, by - ay);
    if (length === 0) continue;
    // The chord's line, a pixel thick, closes the air off; each side is flooded from beside its middle.
    const nx = -(by - ay) / length;
    const ny = (bx - ax) / length;
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    const onChord = (x: number, y: number): boolean => {
      const px = (x + 0.5) * sx;
      const py = (y + 0.5) * sy;
      const across = (px - mx) * nx + (py - my) * ny;
      const along = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length;
      return Math.abs(across) <= Math.max(sx, sy) * 0.75 && along >= -sx && along <= length + sx;
    };
    const step = 1.5 * Math.max(sx, sy);
    for (const side of [1, -1]) {
      const seedX = Math.floor((mx + side * nx * step) / sx);
      const seedY = Math.floor((my + side * ny * step) / sy);
      const pocket = flood(source, w, h, seedX, seedY, onChord, (x, y) => {
        // Beyond a tip's reach of the chord's middle: not a dead end of it.
        return Math.hypot((x + 0.5) * sx - mx, (y + 0.5) * sy - my) > tipExtentMm;
      });
      if (!pocket || pocket.length === 0) continue;
      // A point's mouth, where the opening is wider than the floor, lies within a tip's reach of the
      // chord the other way. Deep in an arm drawn narrow all along it does not, and filling from
      // there would eat the arm back from its end.
      if (!wideBeside(mx, my, -side * nx, -side * ny)) continue;
      data ??= raster.data.slice();
      let cx = 0;
      let cy = 0;
      for (const i of pocket) {
        data[i] = 1;
        cx += ((i % w) + 0.5) * sx;
        cy += (Math.floor(i / w) + 0.5) * sy;
      }
      for (const i of strandedBeside(data, w, h, pocket)) data[i] = 1;
      cx /= pocket.length;
      cy /= pocket.length;
      const r = Math.max(
        ...pocket.map((i) => Math.hypot(((i % w) + 0.5) * sx - cx, (Math.floor(i / w) + 0.5) * sy - cy)),
      );
      filled.push({ x: round(cx), y: round(cy), r: round(Math.max(r, length / 2)) });
      break;
    }
  }
  return { raster: data ? { ...raster, data } : undefined, filled };
}

const round = (v: number): number => Number(v.toFixed(2));

/**
 * Air beside a filled pocket that the fill left enclosed: pixels of the chord's line, which the
 * flood does not cross, cut off from the opening by the pocket and the metal round it. Traced, a
 * pixel left so is an opening 0.05 mm across (a stencil letter's widened leg kept one and was
 * refused for the metal round it).
 */
function strandedBeside(data: Uint8Array, w: number, h: number, pocket: readonly number[]): number[] {
  const stranded: number[] = [];
  const looked = new Set<number>();
  for (const i of pocket) {
    const x = i % w;
    const y = (i - x) / w;
    for (const [qx, qy] of around(x, y)) {
      const q = qy * w + qx;
      if (qx < 0 || qy < 0 || qx >= w || qy >= h || data[q] || looked.has(q)) continue;
      looked.add(q);
      const enclosed = flood(
        data,
        w,
        h,
        qx,
        qy,
        () => false,
        (px, py) => Math.hypot(px - qx, py - qy) > STRANDED_PX,
      );
      if (enclosed) for (const k of enclosed) if (!data[k]) stranded.push(k);
    }
  }
  return stranded;
}

/** The four pixels beside (x, y). */
const around = (x: number, y: number) =>
  [
    [x - 1, y],
    [x + 1, y],
    [x, y - 1],
    [x, y + 1],
  ] as const;

/** Air enclosed within this many pixels of where it touches a filled pocket is left by the fill. */
const STRANDED_PX = 3;

/**
 * The air pixels 4-connected to (x, y) without crossing `blocked`, or undefined when the flood
 * reaches a pixel `tooFar` (or the strip's edge: air there is cut away, no tip of an opening).
 */
function flood(
  data: Uint8Array,
  w: number,
  h: number,
  x: number,
  y: number,
  blocked: (x: number, y: number) => boolean,
  tooFar: (x: number, y: number) => boolean,
): number[] | undefined {
  if (x < 0 || y < 0 || x >= w || y >= h) return undefined;
  const start = y * w + x;
  if (data[start] || blocked(x, y)) return [];
  const seen = new Set<number>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const i = stack.pop()!;
    const px = i % w;
    const py = (i - px) / w;
    if (tooFar(px, py)) return undefined;
    for (const [qx, qy] of around(px, py)) {
      if (qx < 0 || qy < 0 || qx >= w || qy >= h) return undefined;
      const q = qy * w + qx;
      if (seen.has(q) || data[q] || blocked(qx, qy)) continue;
      seen.add(q);
      stack.push(q);
    }
  }
  return [...seen];
}
