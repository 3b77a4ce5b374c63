import type { Config, ProductType } from '../config.ts';
import type { Fit, SizeInput } from '../contract/create-job.ts';
import { roundTo } from './sizing.ts';

/**
 * The piece's size in a person's terms, read back from the size the agent asked for (decisions §2).
 * A job opened with a bare `lengthMm` has no wrist or ring size of its own: the sizing rules are
 * run backwards at the default fit, and `fromLength` says the figure is derived.
 */
export type WornSize =
  | { product: 'bracelet'; wristMm: number; fit: Fit; gapMm: number; fromLength: boolean }
  /** `usRingSize` is missing when a bare length falls outside the US size table. */
  | { product: 'ring'; usRingSize?: number; innerDiameterMm: number; fromLength: boolean };

interface WornSizeInput {
  productType: ProductType;
  sizeInput: SizeInput;
  /** The flat blank's length. */
  lengthMm: number;
  gapMm: number;
  thicknessMm: number;
}

export function wornSize(input: WornSizeInput, config: Config): WornSize {
  const { sizeInput, lengthMm, gapMm, thicknessMm } = input;
  if (input.productType === 'bracelet') {
    const { easeMm, defaultFit } = config.sizing.bracelet;
    if ('wristMm' in sizeInput) {
      return {
        product: 'bracelet',
        wristMm: sizeInput.wristMm,
        fit: sizeInput.fit ?? defaultFit,
        gapMm,
        fromLength: false,
      };
    }
    // length = wrist + ease + pi x thickness - gap, solved for the wrist.
    const wristMm = Math.round(lengthMm - easeMm[defaultFit] - Math.PI * thicknessMm + gapMm);
    return { product: 'bracelet', wristMm, fit: defaultFit, gapMm, fromLength: true };
  }
  const { usRingSize, innerDiameterMm } = config.sizing.ring;
  if ('usRingSize' in sizeInput) {
    const diameter = innerDiameterMm.atSizeZero + innerDiameterMm.perSize * sizeInput.usRingSize;
    return { product: 'ring', usRingSize: sizeInput.usRingSize, innerDiameterMm: round1(diameter), fromLength: false };
  }
  // length = pi x (inner diameter + thickness), solved for the diameter, then for the nearest size.
  const diameter = lengthMm / Math.PI - thicknessMm;
  const size = roundTo((diameter - innerDiameterMm.atSizeZero) / innerDiameterMm.perSize, usRingSize.step);
  const innerDiameter = round1(diameter);
  if (size < usRingSize.min || size > usRingSize.max)
    return { product: 'ring', innerDiameterMm: innerDiameter, fromLength: true };
  return { product: 'ring', usRingSize: size, innerDiameterMm: innerDiameter, fromLength: true };
}

const round1 = (value: number): number => Math.round(value * 10) / 10;
