import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelComponents } from '../../../core/pipeline/raster/components.ts';
import { resampleToStrip } from '../../../core/pipeline/stages/resample.ts';
import { joinDiagonalMetal, keepSeparations } from '../../../core/pipeline/stages/separations.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';
import { leavesInputAlone } from './draw.ts';

const STAGE = 'separations';

/** Two 60 x 40 px windows either side of a one-pixel bar, in a 200 x 60 px piece drawn at 0.018 mm a pixel. */
async function drawnFine() {
  const [bw, bh] = [200, 60];
  const crop = new Uint8Array(bw * bh).fill(255);
  for (let y = 10; y < 50; y++) {
    crop.fill(0, y * bw + 40, y * bw + 100);
    crop.fill(0, y * bw + 101, y * bw + 161);
  }
  const strip = { lengthMm: bw * 0.018, widthMm: bh * 0.018 };
  const raster = resampleToStrip(crop, { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 }, strip, {
    mmPerPx: 0.05,
    maxPixels: 12_000_000,
  });
  return { raster, crop, bw, bh };
}

const openings = (r: { data: Uint8Array; w: number; h: number }) => {
  const air = labelComponents(
    r.data.map((v) => 1 - v),
    r.w,
    r.h,
    4,
  );
  return [...air.touchesBorder].slice(1).filter((touches) => !touches).length;
};

describe('bars thinner than a working pixel (separations.ts)', () => {
  it('makes the pixels between two drawn openings metal again on a copy of the raster', async () => {
    const { raster, crop, bw, bh } = await drawnFine();
    expect(openings(raster)).toBe(1);
    const cropBefore = crop.slice();
    const out = leavesInputAlone(raster, (r) => keepSeparations(r, crop, bw, bh));
    expect(crop).toEqual(cropBefore);
    expect(openings(out.raster)).toBe(2);
    expect(out.restored).toBeGreaterThan(0);
    await expectGoldenRaster(STAGE, 'one-pixel-bar', out.raster);
    await expectGoldenJson(STAGE, 'one-pixel-bar', { restored: out.restored });
  });

  it('keeps a bar one drawing pixel wide running diagonally in one piece when the working raster is finer', () => {
    // Two windows either side of a 45° staircase bar one pixel wide, drawn at 0.093 mm a pixel: on
    // the 0.05 mm working raster its steps meet only at pixels' corners.
    const [bw, bh] = [60, 40];
    const crop = new Uint8Array(bw * bh).fill(255);
    for (let y = 4; y < 36; y++) {
      for (let x = 4; x < 56; x++) if (x !== y + 10) crop[y * bw + x] = 0;
    }
    const strip = { lengthMm: bw * 0.093, widthMm: bh * 0.093 };
    const raster = resampleToStrip(crop, { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 }, strip, {
      mmPerPx: 0.05,
      maxPixels: 1e6,
    });
    const kept = keepSeparations(raster, crop, bw, bh).raster;
    const pieces = (r: { data: Uint8Array; w: number; h: number }) => labelComponents(r.data, r.w, r.h, 4).count;
    const out = leavesInputAlone(kept, joinDiagonalMetal);
    expect(out.joined).toBeGreaterThan(0);
    expect(pieces(out.raster)).toBe(1);
    expect(openings(out.raster)).toBe(2);
  });

  it('keeps two drawn openings that meet only at a corner apart when the working raster is finer', () => {
    // Two square windows whose corner pixels touch diagonally, drawn at 0.093 mm a pixel, the two
    // metal pixels between them anti-aliased to a light grey (shade 160, metal): enlarged onto the
    // 0.05 mm raster, the shades between those pixels' centres fall under 128 and run the windows into one.
    const [bw, bh] = [20, 20];
    const crop = new Uint8Array(bw * bh).fill(255);
    for (let y = 4; y < 10; y++) crop.fill(0, y * bw + 4, y * bw + 10);
    for (let y = 10; y < 16; y++) crop.fill(0, y * bw + 10, y * bw + 16);
    crop[9 * bw + 10] = 160;
    crop[10 * bw + 9] = 160;
    const strip = { lengthMm: bw * 0.093, widthMm: bh * 0.093 };
    const raster = resampleToStrip(crop, { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 }, strip, {
      mmPerPx: 0.05,
      maxPixels: 1e6,
    });
    expect(openings(raster)).toBe(1);
    const out = leavesInputAlone(raster, (r) => keepSeparations(r, crop, bw, bh));
    expect(out.restored).toBeGreaterThan(0);
    expect(openings(out.raster)).toBe(2);
  });

  it('joins metal touching only at corners as its definition does, block by block in raster order', () => {
    // The definition: every 2 x 2 block in raster order, seeing the joins made before it; of a
    // block with metal on one diagonal only, the air pixel of the higher shade (the first on a tie) is made metal.
    const reference = (data: Uint8Array, shade: Uint8Array, w: number, h: number) => {
      const out = data.slice();
      for (let y = 0; y + 1 < h; y++)
        for (let x = 0; x + 1 < w; x++) {
          const i = y * w + x;
          const [a, b, c, d] = [out[i], out[i + 1], out[i + w], out[i + w + 1]];
          const nearer = (p: number, q: number) => (shade[q]! > shade[p]! ? q : p);
          if (a && d && !b && !c) out[nearer(i + 1, i + w)] = 1;
          else if (b && c && !a && !d) out[nearer(i, i + w + 1)] = 1;
        }
      return out;
    };
    const raster = fc
      .record({ w: fc.integer({ min: 1, max: 24 }), h: fc.integer({ min: 1, max: 24 }) })
      .chain(({ w, h }) =>
        fc.record({
          w: fc.constant(w),
          h: fc.constant(h),
          data: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 1 }),
          shade: fc.uint8Array({ minLength: w * h, maxLength: w * h }),
        }),
      );
    fc.assert(
      fc.property(raster, ({ w, h, data, shade }) => {
        const out = joinDiagonalMetal({ w, h, data, shade, mmPerPxX: 0.05, mmPerPxY: 0.05 });
        const expected = reference(data, shade, w, h);
        expect(Array.from(out.raster.data)).toEqual(Array.from(expected));
        expect(out.joined).toBe(expected.reduce((n, v, i) => n + v - data[i]!, 0));
      }),
      { numRuns: 500, seed: 2026 },
    );
  });
});
