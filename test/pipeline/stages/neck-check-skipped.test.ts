import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/config.ts';
import type { FramingMeasures } from '../../../core/pipeline/stages/frame.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { stageOptions } from '../../../core/pipeline/stage-options.ts';
import { resampleToStrip } from '../../../core/pipeline/stages/resample.ts';
import { pipelineTolerances as t } from '../../../core/pipeline/tolerances.ts';
import { validateStrip } from '../../../core/pipeline/stages/validate.ts';

/**
 * NECK_CHECK_SKIPPED cannot fire through the service: validation skips the neck check only on a
 * working raster of more than `neckCheckMaxPixels` (16 MP), and resampling never makes one larger
 * than `maxWorkPixels` (12 MP): past that it coarsens the resolution, whatever the strip's size.
 * Both are fixed tolerances, not configuration. So it is shown here at the stage that emits it,
 * on a raster built by hand, with the bound the pipeline passes.
 */
const { minMetalMm, minOpeningMm } = defaultConfig.manufacturing;
const options = stageOptions({ minMetalMm, minOpeningMm }).validate;
const ctx = { minMetalMm, minOpeningMm };

/** A plain strip of solid metal, `w` x `h` working pixels at the working resolution. */
const solidStrip = (w: number, h: number): StripRaster => ({
  w,
  h,
  data: new Uint8Array(w * h).fill(1),
  mmPerPxX: t.workMmPerPx,
  mmPerPxY: t.workMmPerPx,
});

describe('NECK_CHECK_SKIPPED', () => {
  it('is a warning with its message on a working raster over the bound, and absent at the bound', () => {
    // Framing ran and left the openings as filling the uncuttable ones found them (the service
    // always passes what framing measured).
    const framed: FramingMeasures = { thinMetal: 'settled', openings: 'unsurveyed' };
    const over = validateStrip(solidStrip(5657, 2829), options, ctx, framed);
    expect(5657 * 2829).toBeGreaterThan(t.neckCheckMaxPixels);
    expect(over.errors).toEqual([]);
    expect(over.warnings).toEqual([
      {
        code: 'NECK_CHECK_SKIPPED',
        severity: 'warning',
        message: `The design is too complex to check every neck (${5657 * 2829} working pixels, over the bound of ${t.neckCheckMaxPixels}).`,
        agent_instruction: 'Simplify the drawing (fewer, larger openings) so every neck can be checked.',
      },
    ]);

    const at = validateStrip(solidStrip(4000, 4000), options, ctx, framed);
    expect(4000 * 4000).toBe(t.neckCheckMaxPixels);
    expect({ warnings: at.warnings, errors: at.errors }).toEqual({ warnings: [], errors: [] });
  });

  it('cannot fire through the service: resampling keeps every strip, however large, under the bound', async () => {
    expect(t.maxWorkPixels).toBeLessThan(t.neckCheckMaxPixels);
    // Far past any product's range, square and at the widest aspect a piece may have (46.15:1).
    for (const strip of [
      { lengthMm: 4000, widthMm: 4000 },
      { lengthMm: 4615, widthMm: 100 },
    ]) {
      const raster = resampleToStrip(new Uint8Array([255]), { x0: 0, y0: 0, x1: 0, y1: 0 }, strip, {
        mmPerPx: t.workMmPerPx,
        maxPixels: t.maxWorkPixels,
      });
      expect(raster.w * raster.h, JSON.stringify(strip)).toBeLessThan(t.neckCheckMaxPixels);
      expect(raster.mmPerPxX).toBeGreaterThan(t.workMmPerPx);
    }
  }, 60_000);
});
