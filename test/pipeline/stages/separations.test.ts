import { describe, expect, it } from 'vitest';
import { labelComponents } from '../../../core/pipeline/labels.ts';
import { resampleToStrip } from '../../../core/pipeline/resample.ts';
import { joinDiagonalMetal, keepSeparations } from '../../../core/pipeline/separations.ts';
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
});
