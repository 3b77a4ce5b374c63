import { describe, expect, it } from 'vitest';
import { labelComponents } from '../../../core/pipeline/raster/components.ts';
import { resampleToStrip } from '../../../core/pipeline/stages/resample.ts';
import { keepSeparations } from '../../../core/pipeline/stages/separations.ts';

/**
 * A drawing finer than the working raster: two 60 x 40 px windows either side of a bar `bar` px
 * wide, in a 200 x 60 px piece (255 metal, 0 air), drawn at `mmPerPx`.
 */
function twoWindows(bar: number): { crop: Uint8Array; bw: number; bh: number } {
  const bw = 200;
  const bh = 60;
  const crop = new Uint8Array(bw * bh).fill(255);
  const left = 100 - 60 - Math.floor(bar / 2);
  for (let y = 10; y < 50; y++) {
    crop.fill(0, y * bw + left, y * bw + left + 60);
    crop.fill(0, y * bw + left + 60 + bar, y * bw + left + 120 + bar);
  }
  return { crop, bw, bh };
}

async function working(bar: number, mmPerPx: number) {
  const { crop, bw, bh } = twoWindows(bar);
  const raster = resampleToStrip(
    crop,
    { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 },
    { lengthMm: bw * mmPerPx, widthMm: bh * mmPerPx },
    { mmPerPx: 0.05, maxPixels: 12_000_000 },
  );
  return { raster, crop, bw, bh };
}

const openings = (data: Uint8Array, w: number, h: number): number => {
  const air = data.map((v) => 1 - v);
  const labels = labelComponents(air, w, h, 4);
  return [...labels.touchesBorder].slice(1).filter((touches) => !touches).length;
};

describe('bars thinner than a working pixel', () => {
  it('keeps a one-pixel bar drawn at 0.018 mm a pixel between two windows as a bar of the working raster', async () => {
    const { raster, crop, bw, bh } = await working(1, 0.018);
    // Resampling alone merges the two windows: the bar is under the 50 % threshold.
    expect(openings(raster.data, raster.w, raster.h)).toBe(1);
    const { raster: kept, restored } = keepSeparations(raster, crop, bw, bh);
    expect(restored).toBeGreaterThan(0);
    expect(openings(kept.data, kept.w, kept.h)).toBe(2);
    // One working pixel across, the height of the windows: no more metal than the bar takes.
    expect(restored).toBeLessThanOrEqual(2 * Math.ceil((40 * 0.018) / raster.mmPerPxY) + 2);
  });

  it('leaves a raster at least as fine as the drawing alone: upsampling keeps a one-pixel bar', async () => {
    const { raster, crop, bw, bh } = await working(1, 0.1);
    expect(openings(raster.data, raster.w, raster.h)).toBe(2);
    const before = raster.data.slice();
    expect(keepSeparations(raster, crop, bw, bh)).toEqual({ raster, restored: 0 });
    expect(raster.data).toEqual(before);
  });

  it('changes nothing where the drawing has one opening', async () => {
    const { crop, bw, bh } = twoWindows(0);
    const raster = resampleToStrip(
      crop,
      { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 },
      { lengthMm: bw * 0.018, widthMm: bh * 0.018 },
      { mmPerPx: 0.05, maxPixels: 12_000_000 },
    );
    const before = raster.data.slice();
    expect(keepSeparations(raster, crop, bw, bh)).toEqual({ raster, restored: 0 });
    expect(raster.data).toEqual(before);
  });
});
