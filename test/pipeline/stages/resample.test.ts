import { describe, expect, it } from 'vitest';
import { resampleToStrip } from '../../../core/pipeline/resample.ts';
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

describe('resampling (resample.ts)', () => {
  it('puts the kept metal onto the strip at the working resolution, with a 50 % threshold', async () => {
    const input = crop();
    const before = input.slice();
    const out = await resampleToStrip(
      input,
      BOX,
      { lengthMm: 10, widthMm: 4 },
      { mmPerPx: 0.05, maxPixels: 12_000_000 },
    );
    expect(input).toEqual(before);
    expect(out).toMatchObject({ w: 200, h: 80, mmPerPxX: 0.05, mmPerPxY: 0.05 });
    // The round opening, 2 mm across: about 3.14 mm² of air, 1257 pixels.
    expect(200 * 80 - metalPixels(out)).toBeGreaterThan(1257);
    await expectGoldenRaster(STAGE, 'opening-and-slot', out);
  });

  it('coarsens the resolution when the strip would pass the pixel bound', async () => {
    const out = await resampleToStrip(crop(), BOX, { lengthMm: 10, widthMm: 4 }, { mmPerPx: 0.05, maxPixels: 4000 });
    expect(out.w * out.h).toBeLessThanOrEqual(4000);
    await expectGoldenJson(STAGE, 'coarsened', { w: out.w, h: out.h, mmPerPxX: out.mmPerPxX, mmPerPxY: out.mmPerPxY });
    await expectGoldenRaster(STAGE, 'coarsened', out);
  });
});
