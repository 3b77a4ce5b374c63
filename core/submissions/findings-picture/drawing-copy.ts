import sharp from 'sharp';
import type { Config } from '../../config.ts';

/** The copy of an uploaded drawing kept with its submission, from which the findings picture is drawn. */
export interface KeptDrawing {
  /** Greyscale PNG, alpha flattened onto white, at most the recommended canvas width on its long side. */
  png: Buffer;
  /** The uploaded image's own size: findings' `px` are in these pixels. */
  source: { width: number; height: number };
}

/**
 * The drawing as the findings picture needs it, made once at upload: greyscale (so the coloured
 * marks stand out), flattened onto white as the pipeline reads it, and scaled down to fit a square
 * of the recommended canvas width (1536 px live) with its aspect kept, never up. Decoding is
 * bounded by `image.maxPixels` and streams line by line, so a 24 MP upload never sits in memory
 * whole here. Throws when sharp cannot read the file.
 */
export async function keepDrawing(
  png: Uint8Array,
  source: { width: number; height: number },
  image: Config['image'],
): Promise<KeptDrawing> {
  const side = Math.max(image.recommendedPixels.width, image.recommendedPixels.height);
  const copy = await sharp(png, { limitInputPixels: image.maxPixels, sequentialRead: true })
    .flatten({ background: '#ffffff' })
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .toColourspace('b-w')
    .png({ compressionLevel: 9 })
    .toBuffer();
  return { png: copy, source: { width: source.width, height: source.height } };
}

/** The kept copy as 8-bit luminance, one byte per pixel. */
export async function drawingLuminance(png: Buffer): Promise<{ w: number; h: number; lum: Uint8Array }> {
  const { data, info } = await sharp(png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
  return { w: info.width, h: info.height, lum: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
