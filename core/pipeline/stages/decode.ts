import sharp from 'sharp';

/** The image as 8-bit luminance, alpha flattened onto white. */
export interface Luminance {
  w: number;
  h: number;
  lum: Uint8Array;
}

/**
 * Decodes any PNG sharp reads (8/16-bit, grey/RGB/palette, alpha, interlaced) to luminance.
 * `maxPixels` bounds what the decoder may allocate; a file that fails to decode throws.
 */
export async function decodeLuminance(png: Uint8Array, maxPixels: number): Promise<Luminance> {
  const { data, info } = await sharp(png, { limitInputPixels: maxPixels, failOn: 'error' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
  return { w: info.width, h: info.height, lum: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
