import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resampleToStrip } from '../../../core/pipeline/stages/resample.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';
import { metalPixels } from './draw.ts';

const STAGE = 'resample';

/** A 100 x 40 crop (255 metal, 0 air) with a round opening 20 px across and a diagonal slot. */
function crop(): Uint8Array {
  const [w, h] = [100, 40];
  const out = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if ((x + 0.5 - 25) ** 2 + (y + 0.5 - 20) ** 2 <= 100) out[y * w + x] = 0;
      if (Math.abs(x - 50 - y) < 3 && y > 5 && y < 35) out[y * w + x] = 0;
    }
  }
  return out;
}
const BOX = { x0: 0, y0: 0, x1: 99, y1: 39 };

/** A crop `bw` wide (one row repeated `bh` times) of the given shades, at least 128 metal. */
const rows = (shades: number[], bh: number): Uint8Array => {
  const out = new Uint8Array(shades.length * bh);
  for (let y = 0; y < bh; y++) out.set(shades, y * shades.length);
  return out;
};
const metalInRow = (raster: { w: number; data: Uint8Array }, y: number): number =>
  raster.data.subarray(y * raster.w, (y + 1) * raster.w).reduce((a, b) => a + b, 0);

/**
 * The resampling by its definition, pixel by pixel: each row filtered along x with a tent centred
 * on the output pixel's centre (one input pixel wide each side, or one output pixel's worth when
 * reducing; taps beyond an end fold onto the edge pixel) and rounded to a byte, then each column
 * likewise, summed in single precision tap by tap and rounded; at least 128 is metal. No copying
 * of plain runs and no ring of rows, which the stage does for speed.
 */
function referenceResample(crop: Uint8Array, bw: number, bh: number, w: number, h: number) {
  const taps = (n: number, m: number) =>
    Array.from({ length: m }, (_, j) => {
      const radius = Math.max(1, n / m);
      const centre = ((j + 0.5) * n) / m - 0.5;
      const byPixel = new Map<number, number>();
      let sum = 0;
      for (let i = Math.ceil(centre - radius); i <= Math.floor(centre + radius); i++) {
        const weight = Math.max(0, 1 - Math.abs(i - centre) / radius);
        const at = Math.max(0, Math.min(n - 1, i));
        byPixel.set(at, (byPixel.get(at) ?? 0) + weight);
        sum += weight;
      }
      return [...byPixel]
        .sort((a, b) => a[0] - b[0])
        .map(([at, weight]) => [at, Math.fround(Math.fround(weight) / sum)]);
    });
  const across = taps(bw, w);
  const down = taps(bh, h);
  const filtered = new Uint8ClampedArray(bh * w);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < w; x++)
      filtered[y * w + x] = across[x]!.reduce((s, [at, k]) => s + k! * crop[y * bw + at!]!, 0);
  const shade = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sum = down[y]!.reduce((s, [at, k]) => Math.fround(s + k! * filtered[at! * w + x]!), 0);
      shade[y * w + x] = Math.min(255, Math.round(sum));
    }
  return { shade, data: shade.map((v) => v >>> 7) };
}

describe('resampling (resample.ts)', () => {
  it('resamples any drawing as the tent filter defines it, enlarging, reducing or both at once', () => {
    // Drawings of plain metal and air with grey edges and noise: long plain runs, as real drawings have.
    const drawing = fc
      .record({ bw: fc.integer({ min: 1, max: 40 }), bh: fc.integer({ min: 1, max: 40 }), seed: fc.integer() })
      .map(({ bw, bh, seed }) => {
        let state = seed >>> 0;
        const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
        const crop = new Uint8Array(bw * bh).fill(next() < 0.5 ? 0 : 255);
        for (let k = 0; k < 4; k++) {
          const [cx, cy, r, v] = [next() * bw, next() * bh, next() * 10, next() < 0.5 ? 0 : 255];
          for (let y = 0; y < bh; y++)
            for (let x = 0; x < bw; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) crop[y * bw + x] = v;
        }
        for (let k = 0; k < (bw * bh) / 8; k++) crop[Math.floor(next() * bw * bh)] = Math.floor(next() * 256);
        return { crop, bw, bh };
      });
    fc.assert(
      fc.property(
        drawing,
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 90 }),
        ({ crop, bw, bh }, w, h) => {
          const out = resampleToStrip(
            crop,
            { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 },
            { lengthMm: w * 0.05, widthMm: h * 0.05 },
            { mmPerPx: 0.05, maxPixels: 1e6 },
          );
          expect([out.w, out.h]).toEqual([w, h]);
          const reference = referenceResample(crop, bw, bh, w, h);
          expect(Buffer.from(out.shade!).equals(Buffer.from(reference.shade))).toBe(true);
          expect(Buffer.from(out.data).equals(Buffer.from(reference.data))).toBe(true);
        },
      ),
      { numRuns: 300, seed: 2026 },
    );
  });

  it("puts an edge where the drawing's grey crosses 128, between its pixels, enlarging and reducing", () => {
    // Metal (255) up to pixel 19, a grey pixel (shade 64: luminance 191), then air: the grey crosses
    // 128 two thirds of the way from pixel 19's centre to pixel 20's, at 19.665 + 0.5 = 20.165 pixels.
    const shades = [...Array<number>(20).fill(255), 64, ...Array<number>(19).fill(0)];
    const box = { x0: 0, y0: 0, x1: 39, y1: 3 };
    // At 0.1 mm a drawing pixel the edge lies at 2.0165 mm: 40 working pixels of 0.05 mm are metal.
    const enlarged = resampleToStrip(
      rows(shades, 4),
      box,
      { lengthMm: 4, widthMm: 0.4 },
      { mmPerPx: 0.05, maxPixels: 1e6 },
    );
    expect([0, 4, 7].map((y) => metalInRow(enlarged, y))).toEqual([40, 40, 40]);
    // At 0.01 mm a pixel the edge lies at 0.20165 mm (a tent over five drawing pixels keeps it there).
    const reduced = resampleToStrip(
      rows(shades, 20),
      { ...box, y1: 19 },
      { lengthMm: 0.4, widthMm: 0.2 },
      { mmPerPx: 0.05, maxPixels: 1e6 },
    );
    expect(metalInRow(reduced, 1)).toBe(4);
  });

  it('keeps a slit drawn 0.24 mm wide with grey edges at 0.24 mm, as a faithful trace reads it', () => {
    // On the recommended canvas a drawing pixel is about 0.115 mm: the slit is one white pixel
    // between two grey ones (luminance 158 and 120: the rail's and the letter's partial edges).
    const shades = [...Array<number>(10).fill(255), 97, 0, 135, ...Array<number>(10).fill(255)];
    const mm = 0.11506;
    const raster = resampleToStrip(
      rows(shades, 4),
      { x0: 0, y0: 0, x1: 22, y1: 3 },
      { lengthMm: 23 * mm, widthMm: 4 * mm },
      { mmPerPx: 0.05, maxPixels: 1e6 },
    );
    const air = raster.w - metalInRow(raster, 2);
    // The grey crosses 128 at 10.81 and 12.94 pixels: 0.245 mm, on 0.05 mm pixels 4.9 of them.
    expect(air * raster.mmPerPxX).toBeGreaterThanOrEqual(0.24);
    expect(air * raster.mmPerPxX).toBeLessThanOrEqual(0.25);
  });

  it('puts the kept metal onto the strip at the working resolution, with a 50 % threshold', async () => {
    const input = crop();
    const before = input.slice();
    const out = resampleToStrip(input, BOX, { lengthMm: 10, widthMm: 4 }, { mmPerPx: 0.05, maxPixels: 12_000_000 });
    expect(input).toEqual(before);
    expect(out).toMatchObject({ w: 200, h: 80, mmPerPxX: 0.05, mmPerPxY: 0.05 });
    // The round opening, 2 mm across: about 3.14 mm² of air, 1257 pixels.
    expect(200 * 80 - metalPixels(out)).toBeGreaterThan(1257);
    await expectGoldenRaster(STAGE, 'opening-and-slot', out);
  });

  it('coarsens the resolution when the strip would pass the pixel bound', async () => {
    const out = resampleToStrip(crop(), BOX, { lengthMm: 10, widthMm: 4 }, { mmPerPx: 0.05, maxPixels: 4000 });
    expect(out.w * out.h).toBeLessThanOrEqual(4000);
    await expectGoldenJson(STAGE, 'coarsened', { w: out.w, h: out.h, mmPerPxX: out.mmPerPxX, mmPerPxY: out.mmPerPxY });
    await expectGoldenRaster(STAGE, 'coarsened', out);
  });
});
