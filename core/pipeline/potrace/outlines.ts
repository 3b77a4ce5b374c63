// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.
import type { PixelOutline, PotracePoint } from './types.ts';

/**
 * Potrace's path decomposition with the 'left' turn policy and no speckle suppression: finds the
 * outlines of a w × h bitmap (1 = traced) in scan order, handing each to `visit` as soon as it is
 * found. Each outline is XOR-ed out of `data` (which is consumed), so holes come out as outlines
 * of their own after the region around them.
 */
export function forEachOutline(w: number, h: number, data: Uint8Array, visit: (outline: PixelOutline) => void): void {
  const size = w * h;
  let i = 0;
  for (;;) {
    while (i < size && data[i] !== 1) i++;
    if (i >= size) return;
    const outline = followOutline(w, h, data, i % w, Math.floor(i / w));
    xorOutline(w, data, outline);
    // The port's speckle test with a size of 0; an outline's area is never below 1.
    if (outline.area > 0) visit(outline);
  }
}

/** A pixel of the working copy; outside the bitmap counts as not traced. */
function pixelAt(w: number, h: number, data: Uint8Array, x: number, y: number): number {
  return x < 0 || x >= w || y < 0 || y >= h ? 0 : data[w * y + x]!;
}

/** Walks the outline whose top-left corner is (x0, y0), traced pixels on the left, starting down. */
function followOutline(w: number, h: number, data: Uint8Array, x0: number, y0: number): PixelOutline {
  const pt: PotracePoint[] = [];
  let minX = x0;
  let minY = y0;
  let maxX = x0;
  let maxY = y0;
  let area = 0;
  let x = x0;
  let y = y0;
  let dirx = 0;
  let diry = 1;
  for (;;) {
    pt.push({ x, y });
    if (x > maxX) maxX = x;
    if (x < minX) minX = x;
    if (y > maxY) maxY = y;
    if (y < minY) minY = y;
    x += dirx;
    y += diry;
    area -= x * diry;
    if (x === x0 && y === y0) break;
    const left = pixelAt(w, h, data, x + (dirx + diry - 1) / 2, y + (diry - dirx - 1) / 2);
    const right = pixelAt(w, h, data, x + (dirx - diry - 1) / 2, y + (diry + dirx - 1) / 2);
    const turn = dirx;
    if (left && right) {
      // Blocked ahead: turn right.
      dirx = -diry;
      diry = turn;
    } else if (!left) {
      // Open ahead-left, or a diagonal contact, which the 'left' policy resolves by turning left.
      dirx = diry;
      diry = -turn;
    }
  }
  return { area, pt, minX, minY, maxX, maxY };
}

/** Inverts everything between the outline's vertical edges and its right bound, row by row. */
function xorOutline(w: number, data: Uint8Array, outline: PixelOutline): void {
  const { pt, maxX } = outline;
  let y1 = pt[0]!.y;
  for (let i = 1; i < pt.length; i++) {
    const { x, y } = pt[i]!;
    if (y === y1) continue;
    const base = (y1 < y ? y1 : y) * w;
    for (let j = base + x; j < base + maxX; j++) data[j] = data[j] ? 0 : 1;
    y1 = y;
  }
}
