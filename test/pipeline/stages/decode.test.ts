import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeLuminance } from '../../../core/pipeline/stages/decode.ts';
import { expectGoldenJson } from '../../helpers/golden.ts';

const STAGE = 'decode';
/** An 8 x 2 grey ramp: 0, 36, 73, ... 255 on the first row, its reverse on the second. */
const ramp = Uint8Array.from({ length: 16 }, (_, i) => Math.round(((i < 8 ? i : 15 - i) * 255) / 7));

async function decoded(png: Buffer) {
  const copy = Buffer.from(png);
  const out = await decodeLuminance(png, 1000);
  expect(png.equals(copy), 'the decoder changed its input').toBe(true);
  return { w: out.w, h: out.h, lum: Array.from(out.lum) };
}

describe('decoding (decode.ts)', () => {
  it('reads 8-bit grey, 16-bit grey and RGB as the same luminance', async () => {
    const grey8 = await sharp(ramp, { raw: { width: 8, height: 2, channels: 1 } })
      .png()
      .toBuffer();
    const grey16 = await sharp(ramp, { raw: { width: 8, height: 2, channels: 1 } })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    const rgb = await sharp(ramp, { raw: { width: 8, height: 2, channels: 1 } })
      .toColourspace('srgb')
      .png()
      .toBuffer();
    const out = await decoded(grey8);
    expect(out).toMatchObject({ w: 8, h: 2 });
    expect(await decoded(grey16)).toEqual(out);
    expect(await decoded(rgb)).toEqual(out);
    await expectGoldenJson(STAGE, 'ramp', out);
  });

  it('flattens transparency onto white', async () => {
    // Black, with alpha from 0 (transparent: white) to 255 (opaque: black).
    const rgba = Uint8Array.from({ length: 32 }, (_, i) => (i % 4 === 3 ? Math.round(((i >> 2) * 255) / 7) : 0));
    const png = await sharp(rgba, { raw: { width: 8, height: 1, channels: 4 } })
      .png()
      .toBuffer();
    const out = await decoded(png);
    expect(out.lum[0]).toBe(255);
    expect(out.lum[7]).toBe(0);
    await expectGoldenJson(STAGE, 'alpha', out);
  });

  it('throws on data that is no PNG, or past the pixel bound', async () => {
    await expect(decodeLuminance(new Uint8Array([1, 2, 3]), 1000)).rejects.toThrow();
    const big = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await expect(decodeLuminance(big, 1000)).rejects.toThrow();
  });
});
