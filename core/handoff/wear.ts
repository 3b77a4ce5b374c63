import type { ProductType } from '../config.ts';
import type { Geometry } from '../contract/submission.ts';
import type { CoreDeps } from '../deps.ts';
import { wornSize, type WornSize } from '../jobs/worn-size.ts';
import type { Wear } from './types.ts';

/** How the piece is worn, as stored and in a person's terms. */
export function wearOf(
  wear: Wear,
  productType: ProductType,
  geometry: Geometry,
  deps: CoreDeps,
): { wear: Wear; worn: WornSize } {
  return { wear, worn: wornSize({ productType, lengthMm: geometry.lengthMm, ...wear }, deps.config) };
}
