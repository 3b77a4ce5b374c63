import type { ProductType } from '../config.ts';
import type { Geometry } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { wornSize } from '../jobs/worn-size.ts';
import { pictureSizesOf } from '../piece-pictures/shape.ts';
import type { ApprovalView, Wear } from './types.ts';

/** How the piece is worn, as stored and in a person's terms, and the sizes of its pictures. */
export function wearOf(
  wear: Wear,
  productType: ProductType,
  geometry: Geometry,
  deps: CoreDeps,
): Pick<ApprovalView, 'wear' | 'worn' | 'pictures'> {
  return {
    wear,
    worn: wornSize({ productType, lengthMm: geometry.lengthMm, ...wear }, deps.config),
    pictures: pictureSizesOf(productType, geometry, wear, deps.config),
  };
}
