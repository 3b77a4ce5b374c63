import type { Config, ProductType } from '../config.ts';
import type { SizeInput } from '../contract/create-job.ts';
import { slot, words } from '../contract/agent-words.ts';
import { coreError, configuredError, invalidRequest } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';

/** The flat blank's length for a size form, rounded as decisions §2 says, within the product's range. */
export function blankLengthMm(productType: ProductType, size: SizeInput, config: Config): Result<number> {
  const computed = rawLength(productType, size, config);
  if (!computed.ok) return computed;
  const lengthMm = roundTo(computed.value, config.sizing.lengthRoundingMm);
  const range = config.products[productType].lengthRangeMm;
  if (lengthMm < range.min || lengthMm > range.max) {
    return err(
      coreError('LENGTH_OUT_OF_RANGE', {
        message: `The blank length ${fmt(lengthMm)} mm is outside the ${productType} range ${fmt(range.min)}-${fmt(range.max)} mm.`,
      }),
    );
  }
  return ok(lengthMm);
}

function rawLength(productType: ProductType, size: SizeInput, config: Config): Result<number> {
  const { thicknessMm } = config.manufacturing;
  if ('lengthMm' in size) return ok(size.lengthMm);
  if ('wristMm' in size) {
    if (productType !== 'bracelet')
      return err(invalidRequest(words`${slot.sizeField('wristMm')} is for bracelets only. ${slot.sizeForms}`));
    const { wristMm, easeMm, defaultFit } = config.sizing.bracelet;
    if (size.wristMm < wristMm.min || size.wristMm > wristMm.max) {
      return err(
        invalidRequest(
          words`${slot.sizeField('wristMm')} must be between ${fmt(wristMm.min)} and ${fmt(wristMm.max)} mm.`,
        ),
      );
    }
    const ease = easeMm[size.fit ?? defaultFit];
    return ok(size.wristMm + ease + Math.PI * thicknessMm - config.products.bracelet.gapMm);
  }
  if (productType !== 'ring')
    return err(invalidRequest(words`${slot.sizeField('usRingSize')} is for rings only. ${slot.sizeForms}`));
  const { usRingSize, innerDiameterMm } = config.sizing.ring;
  const steps = (size.usRingSize - usRingSize.min) / usRingSize.step;
  if (
    size.usRingSize < usRingSize.min ||
    size.usRingSize > usRingSize.max ||
    Math.abs(steps - Math.round(steps)) > 1e-9
  ) {
    return err(
      invalidRequest(
        words`${slot.sizeField('usRingSize')} must be between ${fmt(usRingSize.min)} and ${fmt(usRingSize.max)} in steps of ${fmt(usRingSize.step)}.`,
      ),
    );
  }
  const innerDiameter = innerDiameterMm.atSizeZero + innerDiameterMm.perSize * size.usRingSize;
  return ok(Math.PI * (innerDiameter + thicknessMm));
}

/** The width must fit the product and keep the strip's ratio inside the crop aspect range. */
export function checkWidth(
  productType: ProductType,
  lengthMm: number,
  widthMm: number,
  config: Config,
): Result<number> {
  const range = config.products[productType].widthRangeMm;
  if (!(widthMm >= range.min && widthMm <= range.max)) {
    return err(
      configuredError('WIDTH_OUT_OF_RANGE', config.image, {
        message: `widthMm ${fmt(widthMm)} is outside the ${productType} width range ${fmt(range.min)}-${fmt(range.max)} mm.`,
      }),
    );
  }
  const { min: minAspect, max: maxAspect } = config.image.cropAspect;
  const minWidth = Math.ceil((lengthMm / maxAspect) * 100) / 100;
  if (widthMm < minWidth) {
    return err(
      configuredError('WIDTH_OUT_OF_RANGE', config.image, {
        message: `widthMm ${fmt(widthMm)} is narrower than the minimum ${fmt(minWidth)} mm for a ${fmt(lengthMm)} mm blank (blank length / ${fmt(maxAspect)}).`,
      }),
    );
  }
  const maxWidth = Math.floor((lengthMm / minAspect) * 100) / 100;
  if (widthMm > maxWidth) {
    return err(
      configuredError('WIDTH_OUT_OF_RANGE', config.image, {
        message: `widthMm ${fmt(widthMm)} is wider than the maximum ${fmt(maxWidth)} mm for a ${fmt(lengthMm)} mm blank (blank length / ${fmt(minAspect)}).`,
      }),
    );
  }
  return ok(widthMm);
}

/** Rounds to a multiple of `step`, half up, without binary noise (55.55 -> 55.6 at 0.1). */
export const roundTo = (value: number, step: number): number =>
  Number((Math.round(Number((value / step).toFixed(9))) * step).toFixed(6));

const fmt = (n: number): string => String(Number(n.toFixed(3)));
