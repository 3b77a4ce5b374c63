import { describe, expect, it } from 'vitest';
import type { FinalCut } from '../../../core/pipeline/final-check/rings.ts';
import {
  countCutPaths,
  cutAreaMm2,
  cuttingSvg,
  metalAreaMm2,
  previewSvg,
} from '../../../core/pipeline/stages/cutting-svg.ts';
import { expectGoldenJson, expectGoldenText } from '../../helpers/golden.ts';

const STAGE = 'render';
const ring = (...points: number[]) => Int32Array.from(points);

/**
 * A 20 x 6 mm strip's cuts in thousandths, as the final check leaves them: a square window with a
 * square island inside it, a triangle, and a bite out of the top edge.
 */
function cuts(): FinalCut[] {
  return [
    {
      outer: ring(2000, 1000, 6000, 1000, 6000, 5000, 2000, 5000),
      holes: [ring(3500, 2500, 3500, 3500, 4500, 3500, 4500, 2500)],
    },
    { outer: ring(8000, 4500, 10500, 1500, 13000, 4500), holes: [] },
    { outer: ring(15000, 0, 18000, 0, 17250, 1250, 15750, 1250), holes: [] },
  ];
}

describe('writing the cutting file and the preview (cutting-svg.ts)', () => {
  it('writes the cutting file and the preview from the checked cuts, leaving them as they were', async () => {
    const input = cuts();
    const cutting = cuttingSvg(20, 6, input);
    const preview = previewSvg(20, 6, input, 'Bracelet 20 x 6 mm');
    expect(input).toEqual(cuts());
    expect(countCutPaths(cutting)).toBe(3);
    // 16 - 1 + 7.5 + 2.8125 mm² of cuts, out of 120 mm².
    expect(cutAreaMm2(input)).toBeCloseTo(25.3125, 9);
    expect(metalAreaMm2(20, 6, input)).toBeCloseTo(94.6875, 9);
    expect(cutting).toContain('<path d="M2.000 1.000L6.000 1.000L6.000 5.000L2.000 5.000ZM3.500 2.500');
    expectGoldenText(STAGE, 'cutouts.svg', cutting);
    expectGoldenText(STAGE, 'preview.svg', preview);
    await expectGoldenJson(STAGE, 'areas', {
      cuts: countCutPaths(cutting),
      cutAreaMm2: cutAreaMm2(input),
      metalAreaMm2: metalAreaMm2(20, 6, input),
    });
  });

  it('writes an empty group for a strip without cuts', () => {
    expect(countCutPaths(cuttingSvg(12.5, 4, []))).toBe(0);
    expect(metalAreaMm2(12.5, 4, [])).toBe(50);
  });
});
