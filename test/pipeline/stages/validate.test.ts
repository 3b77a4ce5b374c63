import { describe, expect, it } from 'vitest';
import { frameStrip } from '../../../core/pipeline/stages/frame.ts';
import { labelComponents } from '../../../core/pipeline/raster/components.ts';
import { surveyAir } from '../../../core/pipeline/measure/openings.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { fillUncuttableOpenings } from '../../../core/pipeline/stages/uncuttable-openings.ts';
import { validateStrip } from '../../../core/pipeline/stages/validate.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';
import {
  codes,
  ctx,
  disc,
  fillOptions,
  findingsOf,
  frameOptions,
  leavesInputAlone,
  metalStrip,
  rect,
  validateOptions,
} from './draw.ts';

const STAGE = 'validate';
const validate = (raster: StripRaster) => validateStrip(raster, validateOptions, ctx);

/**
 * A 20 x 6 mm strip cut in two by a 1 mm band across it at 14 mm (the right part is loose), with a
 * 3 mm window holding a 1 mm island (trapped).
 */
function pieces(): StripRaster {
  const r = metalStrip(20, 6);
  rect(r, 14, 0, 1, 6, 0);
  rect(r, 2, 1.5, 3, 3, 0);
  disc(r, 3.5, 3, 0.5, 1);
  return r;
}

/** A 20 x 6 mm strip: two windows either side of a 0.3 mm bar, and a slot 0.15 mm wide. */
function narrow(): StripRaster {
  const r = metalStrip(20, 6);
  rect(r, 1, 1.5, 3, 3, 0);
  rect(r, 4.3, 1.5, 3, 3, 0);
  rect(r, 10, 1.5, 0.15, 3, 0);
  return r;
}

describe('validation (validate.ts)', () => {
  it('refuses a loose piece and a trapped island, and erases both from the strip it returns', async () => {
    const input = pieces();
    const out = leavesInputAlone(input, validate);
    expect(codes(out.errors)).toEqual(['MATERIAL_DISCONNECTED', 'TRAPPED_ISLAND']);
    expect(out.warnings).toEqual([]);
    expect(labelComponents(out.raster.data, out.raster.w, out.raster.h, 4).count).toBe(1);
    await expectGoldenRaster(STAGE, 'pieces', out.raster);
    await expectGoldenJson(
      STAGE,
      'pieces',
      { warnings: findingsOf(out.warnings), errors: findingsOf(out.errors) },
      1e-6,
    );
  });

  it('measures thin metal and narrow openings itself on a strip that was not framed', async () => {
    const input = narrow();
    const out = leavesInputAlone(input, validate);
    expect(codes(out.errors)).toEqual(['NECK_TOO_THIN', 'OPENING_TOO_SMALL']);
    // One piece: nothing to erase, so the strip it returns is its input.
    expect(out.raster).toBe(input);
    await expectGoldenJson(
      STAGE,
      'narrow',
      { warnings: findingsOf(out.warnings), errors: findingsOf(out.errors) },
      1e-6,
    );
  });

  it('takes what framing measured instead of measuring it again', () => {
    const input = narrow();
    // Framing settled the thin metal and left the openings unsurveyed: only the pieces are checked.
    const settled = validateStrip(input, validateOptions, ctx, { thinMetal: 'settled', openings: 'unsurveyed' });
    expect(settled.errors).toEqual([]);
    // Framing's survey of the openings is what validation reports from.
    const survey = surveyAir(input, ctx.minOpeningMm);
    const surveyed = validateStrip(input, validateOptions, ctx, { thinMetal: 'settled', openings: survey });
    expect(codes(surveyed.errors)).toEqual(['OPENING_TOO_SMALL']);
  });

  it('finds nothing on a strip whose narrow slot was filled and whose thin bar framing widened', () => {
    const filled = fillUncuttableOpenings(narrow(), fillOptions, ctx);
    const framed = frameStrip(filled.raster, frameOptions, ctx, filled.air);
    expect(framed.thickened).toHaveLength(1);
    const out = leavesInputAlone(framed.raster, (r) => validateStrip(r, validateOptions, ctx, framed.measured));
    expect(out).toMatchObject({ warnings: [], errors: [] });
  });

  it('refuses a strip with no metal left as untraceable', () => {
    const out = validate(rect(metalStrip(4, 2), 0, 0, 4, 2, 0));
    expect(codes(out.errors)).toEqual(['TRACE_REJECTED']);
  });
});
