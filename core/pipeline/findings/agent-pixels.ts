import type { Finding } from '../../contract/finding.ts';

/** Where the strip sits in the uploaded image: the piece's bounding box, inclusive, in image pixels. */
export interface StripInImage {
  box: { x0: number; y0: number; x1: number; y1: number };
  lengthMm: number;
  widthMm: number;
}

/**
 * Gives every location its place in the uploaded image (`px`), in place. The strip is the piece's
 * bounding box scaled to the strip's millimetres, so the mapping is that box's scale per axis; the
 * radius takes the larger scale, so a circle drawn with it still covers the place when the drawing
 * was stretched.
 */
export function addAgentPixels(findings: readonly Finding[], strip: StripInImage): void {
  for (const f of findings) {
    for (const at of f.locations ?? []) at.px = placeInImage(at, strip);
  }
}

/** One place on the strip (mm) in the uploaded image's pixels, as `addAgentPixels` gives it. */
export function placeInImage(at: { x: number; y: number; r: number }, strip: StripInImage): PixelPlace {
  const { box } = strip;
  const sx = (box.x1 - box.x0 + 1) / strip.lengthMm;
  const sy = (box.y1 - box.y0 + 1) / strip.widthMm;
  return {
    x: Math.round(box.x0 + at.x * sx),
    y: Math.round(box.y0 + at.y * sy),
    r: Math.max(1, Math.ceil(at.r * Math.max(sx, sy))),
  };
}

type PixelPlace = { x: number; y: number; r: number };
