import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildConfig, defaultConfig } from '../core/config.ts';
import { blankLengthMm } from '../core/jobs/sizing.ts';
import { wornSize, type WornSize } from '../core/jobs/worn-size.ts';

/** The size a person reads on the approval page, read back from the job's size input and blank. */

const { thicknessMm } = defaultConfig.manufacturing;
const gapMm = defaultConfig.products.bracelet.gapMm;

function blank(productType: 'bracelet' | 'ring', size: any, config = defaultConfig): number {
  const length = blankLengthMm(productType, size, config);
  if (!length.ok) throw new Error(length.error.message);
  return length.value;
}

describe('wornSize', () => {
  it('a wrist size given by the agent is shown as given, with its fit and the cuff gap', () => {
    const lengthMm = blank('bracelet', { wristMm: 162, fit: 'loose' });
    expect(
      wornSize(
        { productType: 'bracelet', sizeInput: { wristMm: 162, fit: 'loose' }, lengthMm, gapMm, thicknessMm },
        defaultConfig,
      ),
    ).toEqual({
      product: 'bracelet',
      wristMm: 162,
      fit: 'loose',
      gapMm: 25,
      fromLength: false,
    });
  });

  it('a wrist size without a fit reads the configured default fit', () => {
    const config = buildConfig({ sizing: { bracelet: { defaultFit: 'snug' } } });
    const size = wornSize(
      { productType: 'bracelet', sizeInput: { wristMm: 150 }, lengthMm: 160, gapMm, thicknessMm },
      config,
    );
    expect(size).toMatchObject({ wristMm: 150, fit: 'snug' });
  });

  it('a bare bracelet length gives back the wrist that length was made for, at the default fit, within a millimetre', () => {
    const { min, max } = defaultConfig.sizing.bracelet.wristMm;
    fc.assert(
      fc.property(fc.integer({ min, max }), (wrist) => {
        const lengthMm = blank('bracelet', { wristMm: wrist });
        const size = wornSize(
          { productType: 'bracelet', sizeInput: { lengthMm }, lengthMm, gapMm, thicknessMm },
          defaultConfig,
        );
        expect(size.product).toBe('bracelet');
        const bracelet = size as Extract<WornSize, { product: 'bracelet' }>;
        expect(Math.abs(bracelet.wristMm - wrist)).toBeLessThanOrEqual(1);
        expect(bracelet).toMatchObject({ fit: defaultConfig.sizing.bracelet.defaultFit, fromLength: true, gapMm });
      }),
    );
  });

  it('a bare ring length gives back the US size it was made for, and its inner diameter', () => {
    const { min, max, step } = defaultConfig.sizing.ring.usRingSize;
    const { atSizeZero, perSize } = defaultConfig.sizing.ring.innerDiameterMm;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.round((max - min) / step) }), (steps) => {
        const usRingSize = min + steps * step;
        const lengthMm = blank('ring', { usRingSize });
        const size = wornSize(
          { productType: 'ring', sizeInput: { lengthMm }, lengthMm, gapMm: 0, thicknessMm },
          defaultConfig,
        );
        expect(size).toMatchObject({ product: 'ring', usRingSize, fromLength: true });
        const diameter = atSizeZero + perSize * usRingSize;
        expect(Math.abs((size as { innerDiameterMm: number }).innerDiameterMm - diameter)).toBeLessThanOrEqual(0.1);
      }),
    );
  });

  it('a ring size given by the agent is shown as given, with the diameter the sizing rule makes of it', () => {
    const size = wornSize(
      { productType: 'ring', sizeInput: { usRingSize: 7 }, lengthMm: 60, gapMm: 0, thicknessMm },
      defaultConfig,
    );
    expect(size).toEqual({ product: 'ring', usRingSize: 7, innerDiameterMm: 17.3, fromLength: false });
  });

  it('a ring length outside the US size table gives only the inner diameter', () => {
    const size = wornSize(
      { productType: 'ring', sizeInput: { lengthMm: 40 }, lengthMm: 40, gapMm: 0, thicknessMm },
      defaultConfig,
    );
    expect(size).toEqual({ product: 'ring', innerDiameterMm: 11.2, fromLength: true });
  });
});
