import type { Config, ProductType } from '../config.ts';
import type { Geometry } from '../contract/submission.ts';
import type { Wear } from '../handoff/types.ts';
import { piecePictureSizes, type PictureKind, type PictureSize, type PieceShape } from './layout.ts';

/** What a piece's pictures are drawn from: the stored blank and how it is worn. */
export function pieceShape(productType: ProductType, geometry: Geometry, wear: Wear): PieceShape {
  return {
    productType,
    lengthMm: geometry.lengthMm,
    widthMm: geometry.widthMm,
    gapMm: wear.gapMm,
    thicknessMm: wear.thicknessMm,
  };
}

/** Both pictures' pixel sizes for a page's `<img>` tags, known without drawing either. */
export const pictureSizesOf = (
  productType: ProductType,
  geometry: Geometry,
  wear: Wear,
  config: Config,
): Record<PictureKind, PictureSize> => piecePictureSizes(pieceShape(productType, geometry, wear), config.pictures);
