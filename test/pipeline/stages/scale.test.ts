import { describe, expect, it } from 'vitest';
import { scaleToJob } from '../../../core/pipeline/stages/scale.ts';
import { expectGoldenJson } from '../../helpers/golden.ts';
import { codes, ctx, findingsOf } from './draw.ts';

const STAGE = 'scale';
const options = Object.freeze({
  keepWithin: 0.05,
  maxStretch: 1.5,
  cropAspect: Object.freeze({ min: 0.439, max: 46.15 }),
});
const job = Object.freeze({ lengthMm: 155, widthMm: 20 });
const scale = (w: number, h: number) => scaleToJob(w, h, job, options, ctx);
const summary = (out: ReturnType<typeof scaleToJob>) => ({
  ...out,
  warnings: findingsOf(out.warnings),
  error: out.error ? findingsOf([out.error])[0] : null,
});

describe('scaling (scale.ts)', () => {
  it('keeps the drawing proportions within 5 %, stretches up to x1.5 with a warning, and refuses beyond', async () => {
    // The job's ratio is 7.75:1.
    const kept = scale(775 * 1.03, 100);
    expect(kept).toMatchObject({ lengthMm: 155, stretch: 1, warnings: [] });
    expect(kept.widthMm).toBeCloseTo(20 / 1.03, 9);
    const stretched = scale(775 / 1.2, 100);
    expect(stretched).toMatchObject({ lengthMm: 155, widthMm: 20 });
    expect(stretched.stretch).toBeCloseTo(1.2, 9);
    expect(codes(stretched.warnings)).toEqual(['PROPORTION_MISMATCH']);
    const refused = scale(775 / 2, 100);
    expect(refused.error?.code).toBe('PROPORTION_MISMATCH');
    const aspect = scale(4700, 100);
    expect(findingsOf([aspect.error!])[0]!.facts).toMatchObject({ cause: 'aspect' });
    await expectGoldenJson(
      STAGE,
      'ratios',
      { kept: summary(kept), stretched: summary(stretched), refused: summary(refused), aspect: summary(aspect) },
      1e-9,
    );
  });
});
