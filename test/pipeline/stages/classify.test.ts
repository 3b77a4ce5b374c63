import { describe, expect, it } from 'vitest';
import { classify, classifyDefaults } from '../../../core/pipeline/stages/classify.ts';
import type { Luminance } from '../../../core/pipeline/stages/decode.ts';
import { expectGoldenJson } from '../../helpers/golden.ts';
import { codes, ctx, findingsOf } from './draw.ts';

const STAGE = 'classify';

/** A 40 x 20 luminance image, white, with a black box inside it (inclusive) and whatever `paint` adds. */
function image(box: [number, number, number, number], paint?: (lum: Uint8Array, w: number) => void): Luminance {
  const [w, h] = [40, 20];
  const lum = new Uint8Array(w * h).fill(255);
  const [x0, y0, x1, y1] = box;
  for (let y = y0; y <= y1; y++) lum.fill(0, y * w + x0, y * w + x1 + 1);
  paint?.(lum, w);
  return { w, h, lum };
}

function classified(input: Luminance) {
  const before = input.lum.slice();
  const out = classify(input, classifyDefaults, ctx);
  expect(input.lum, 'classify changed its input').toEqual(before);
  return out;
}

const summary = (out: ReturnType<typeof classify>) => ({
  metalCount: out.metalCount,
  warnings: findingsOf(out.warnings),
  fatal: out.fatal ? findingsOf([out.fatal])[0] : null,
});

describe('classifying (classify.ts)', () => {
  it('takes luminance under 128 for metal and finds nothing to say of a clean drawing', async () => {
    const out = classified(image([5, 5, 34, 14], (lum) => (lum[0] = 127)));
    expect(out.metalCount).toBe(30 * 10 + 1);
    expect(out.metal[0]).toBe(1);
    expect(out.warnings).toEqual([]);
    await expectGoldenJson(STAGE, 'clean', summary(out));
  });

  it('warns of mid-grey ink and of a design touching the edge', async () => {
    // A grey fringe (100) around a box that touches the top and bottom.
    const out = classified(
      image([5, 0, 34, 19], (lum, w) => {
        for (let y = 0; y < 20; y++) lum[y * w + 4] = lum[y * w + 35] = 100;
      }),
    );
    expect(codes(out.warnings)).toEqual(['NOT_TWO_TONE', 'DESIGN_TOUCHES_EDGE']);
    expect(out.fatal).toBeUndefined();
    await expectGoldenJson(STAGE, 'grey-touching', summary(out));
  });

  it('finds no design in a white image, an all-black one, or one black to every border', async () => {
    const white = classified(image([0, 0, -1, -1]));
    const black = classified(image([0, 0, 39, 19]));
    const bleed = classified(image([0, 0, 39, 19], (lum, w) => (lum[10 * w + 20] = 255)));
    expect([white, black, bleed].map((c) => c.fatal?.code)).toEqual(Array(3).fill('NO_DESIGN_FOUND'));
    await expectGoldenJson(STAGE, 'no-design', { white: summary(white), black: summary(black), bleed: summary(bleed) });
  });
});
