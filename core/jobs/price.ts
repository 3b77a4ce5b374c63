import type { Config, ProductType } from '../config.ts';
import type { Price } from '../contract/job.ts';

/** The fixed price of a product; a job keeps the price it was opened with. */
export function productPrice(productType: ProductType, config: Config): Price {
  const { base, shipping } = config.products[productType].price;
  return {
    currency: config.pricing.currency,
    base,
    shipping,
    total: base + shipping,
    vatIncluded: config.pricing.vatIncluded,
    note: config.pricing.note,
  };
}
