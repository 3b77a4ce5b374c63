import type { Config, ProductType } from '../config.ts';
import type { Finding } from '../contract/finding.ts';
import type { Geometry, Margins } from '../contract/submission.ts';
import type { PngHeader } from '../submissions/png-header.ts';
import type { StripInImage } from './findings/agent-pixels.ts';

export type { StripInImage };

export interface PipelineInput {
  png: Uint8Array;
  header: PngHeader;
  productType: ProductType;
  lengthMm: number;
  widthMm: number;
  config: Config;
}

interface PipelineProduct {
  geometry: Geometry;
  cutoutsSvg: string;
  previewSvg: string;
}

/**
 * What analysing one upload yields. `analysed` with no errors and a product is a ready design;
 * `failed` is a technical failure (stored as failed_processing, not counted). `margins`: how close
 * the final geometry came to the floors, whenever the final check measured it. `placement`: where
 * the strip lies in the uploaded image, once the piece was found (stored with the submission, so
 * the findings picture reads it instead of finding the piece again).
 */
export type PipelineOutcome =
  | {
      kind: 'analysed';
      errors: Finding[];
      warnings: Finding[];
      product?: PipelineProduct;
      margins?: Margins;
      placement?: StripInImage;
    }
  | { kind: 'failed'; code: 'VECTORIZER_UNAVAILABLE' | 'PROCESSING_FAILED'; reason: string };

export type Pipeline = (input: PipelineInput) => Promise<PipelineOutcome>;
