import type { Point } from './cuts.ts';
import type { PixelToMm } from './flatten.ts';
import type { StripRaster } from '../raster/raster.ts';

/**
 * The drawn edge as it lies between pixels, for a boundary where potrace's smoothed curve strays
 * from it. The working raster samples the drawing's shades at 0.05 mm and potrace fits curves to
 * those samples within half a pixel, so a slit drawn 0.23 mm wide can come out 0.197 mm in the file.
 * The shades say where the edge lies: the contour where they cross 128, read linearly between
 * pixel centres (marching squares), is the drawn edge to a hundredth of a millimetre or so, as a
 * faithful trace of the drawing has it.
 */

/** The level the shades are read at: at least 128 (0-255, as bytes) is metal. */
const LEVEL = 127.5;
/** Points of the contour within this of the line through their neighbours are dropped (mm). */
const SIMPLIFY_MM = 0.003;

/**
 * Per pixel, the shade the contour is read from: the drawing's own (`raster.shade`) wherever the
 * raster still says what it did, and full metal or air where a stage changed the pixel (a filled
 * opening, a bridge, a widened neck) or the raster has no shades.
 */
export function effectiveShade(raster: StripRaster): Uint8Array {
  const { data, shade } = raster;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const metal = data[i]!;
    const drawn = shade ? shade[i]! : 0;
    out[i] = shade && drawn >>> 7 === metal ? drawn : metal * 255;
  }
  return out;
}

/** A w × h field of shades read with the strip's edge pixels repeated `pad` pixels outwards, as the tracer pads it. */
export interface PaddedField {
  shade: Uint8Array;
  w: number;
  h: number;
  pad: number;
}

/**
 * The contour through the boundary between padded pixels (ax, ay) and (ax + 1, ay), one metal and
 * one air (the first step of a potrace outline), as a ring in millimetres. Metal is 8-connected, as
 * potrace's 'left' policy leaves it: where two metal pixels touch only at a corner, the contour
 * passes between the air pixels. Beyond the padded bitmap counts as metal, as beyond potrace's
 * bitmap counts as untraced. The ring is closed implicitly; its orientation is the caller's to set.
 */
export function faithfulRing(field: PaddedField, ax: number, ay: number, map: PixelToMm): Point[] {
  const pw = field.w + 2 * field.pad;
  const ph = field.h + 2 * field.pad;
  const value = (x: number, y: number): number => {
    if (x < 0 || y < 0 || x >= pw || y >= ph) return 255;
    const sx = Math.min(field.w - 1, Math.max(0, x - field.pad));
    const sy = Math.min(field.h - 1, Math.max(0, y - field.pad));
    return field.shade[sy * field.w + sx]!;
  };
  // Cell (cx, cy) has the pixel centres (cx, cy), (cx + 1, cy), (cx + 1, cy + 1), (cx, cy + 1) as
  // corners 0-3 and edge e between corners e and e + 1 (0 top, 1 right, 2 bottom, 3 left).
  const corner = (cx: number, cy: number, k: number): [number, number] => [
    cx + (k === 1 || k === 2 ? 1 : 0),
    cy + (k >= 2 ? 1 : 0),
  ];
  const metalAt = (p: [number, number]) => value(p[0], p[1]) > LEVEL;
  const points: Point[] = [];
  // The boundary between (ax, ay) and (ax + 1, ay) is the top edge of cell (ax, ay).
  let cx = ax;
  let cy = ay;
  let entry = 0;
  const start = { cx, cy, entry };
  const limit = 4 * (pw + 2) * (ph + 2);
  for (let steps = 0; steps < limit; steps++) {
    const corners = [0, 1, 2, 3].map((k) => corner(cx, cy, k));
    const metal = corners.map(metalAt);
    const crossing = [0, 1, 2, 3].filter((e) => metal[e] !== metal[(e + 1) % 4]);
    let exit: number;
    if (crossing.length === 4) {
      // A saddle: the contour cuts off the air corner of the entry edge on its own.
      exit = metal[entry] ? (entry + 1) % 4 : (entry + 3) % 4;
    } else {
      exit = crossing.find((e) => e !== entry) ?? entry;
    }
    const [p, q] = [corners[exit]!, corners[(exit + 1) % 4]!];
    const vp = value(p[0], p[1]);
    const vq = value(q[0], q[1]);
    const t = (LEVEL - vp) / (vq - vp);
    // Pixel centres are half a pixel in from their corners.
    const x = p[0] + t * (q[0] - p[0]) + 0.5;
    const y = p[1] + t * (q[1] - p[1]) + 0.5;
    points.push([(x - map.ox) * map.sx, (y - map.oy) * map.sy]);
    // Into the neighbouring cell across the exit edge.
    if (exit === 0) cy--;
    else if (exit === 1) cx++;
    else if (exit === 2) cy++;
    else cx--;
    entry = (exit + 2) % 4;
    if (cx === start.cx && cy === start.cy && entry === start.entry) break;
  }
  return simplifyRing(points, SIMPLIFY_MM);
}

/** Drops the points of a closed ring that lie within `tolerance` of the chord over them (Douglas-Peucker). */
export function simplifyRing(ring: Point[], tolerance: number): Point[] {
  const n = ring.length;
  if (n <= 4) return ring;
  // Two anchors far apart: the first point and the point farthest from it.
  let far = 0;
  let best = -1;
  for (let i = 1; i < n; i++) {
    const d = (ring[i]![0] - ring[0]![0]) ** 2 + (ring[i]![1] - ring[0]![1]) ** 2;
    if (d > best) [far, best] = [i, d];
  }
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[far] = 1;
  const stack: [number, number][] = [
    [0, far],
    [far, n],
  ];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = ring[a % n]!;
    const [bx, by] = ring[b % n]!;
    let worst = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const d = segmentDistance(ring[i]![0], ring[i]![1], ax, ay, bx, by);
      if (d > worst) [worst, at] = [d, i];
    }
    if (at >= 0 && worst > tolerance) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return ring.filter((_, i) => keep[i]);
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}
