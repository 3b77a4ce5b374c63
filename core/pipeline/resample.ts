import sharp from 'sharp';
import type { StripRaster } from './raster.ts';

export interface ResampleOptions {
  /** Target working resolution in millimetres per pixel. */
  mmPerPx: number;
  /** Above this many working pixels the resolution is coarsened to stay within it. */
  maxPixels: number;
}

/**
 * The kept metal (`crop`: the piece's box, 255 for metal and 0 for air, row by row),
 * resampled onto the strip at millimetre scale (stretching it if the scale says so), with
 * linear interpolation and a 50 % threshold so diagonal edges come out smooth rather than
 * stepped.
 */
export async function resampleToStrip(
  crop: Uint8Array,
  box: { x0: number; y0: number; x1: number; y1: number },
  strip: { lengthMm: number; widthMm: number },
  options: ResampleOptions,
): Promise<StripRaster> {
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const area = strip.lengthMm * strip.widthMm;
  const mmPerPx = Math.max(options.mmPerPx, Math.sqrt(area / options.maxPixels));
  const w = Math.max(1, Math.round(strip.lengthMm / mmPerPx));
  const h = Math.max(1, Math.round(strip.widthMm / mmPerPx));
  const input = Buffer.from(crop.buffer, crop.byteOffset, crop.byteLength);
  const resized = await sharp(input, { raw: { width: bw, height: bh, channels: 1 } })
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = new Uint8Array(w * h);
  // The top bit of a byte is its test against 128, without a branch; four bytes a step when the
  // buffer's memory allows.
  const words = resized.byteOffset % 4 === 0 ? data.length >> 2 : 0;
  if (words > 0) {
    const from = new Uint32Array(resized.buffer, resized.byteOffset, words);
    const to = new Uint32Array(data.buffer, 0, words);
    for (let q = 0; q < words; q++) to[q] = (from[q]! >>> 7) & 0x01010101;
  }
  for (let i = words * 4; i < data.length; i++) data[i] = resized[i]! >>> 7;
  return { w, h, data, mmPerPxX: strip.lengthMm / w, mmPerPxY: strip.widthMm / h };
}
