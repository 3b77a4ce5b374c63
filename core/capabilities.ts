import type { Config } from './config.ts';
import { SIZE_FORMS_MESSAGE } from './contract/create-job.ts';
import { errorCodes } from './errors.ts';
import { productPrice } from './jobs/price.ts';
import type { ServiceUrls } from './urls.ts';

export const API_VERSION = 'v1';
export const CONTRACT_VERSION = '2026-09';

/** The live capabilities, built from the same merged configuration every validator reads. */
export function buildCapabilities(config: Config, urls: ServiceUrls) {
  const { manufacturing: m, image, limits, sizing } = config;
  return {
    apiVersion: API_VERSION,
    contractVersion: CONTRACT_VERSION,
    manufacturing: {
      material: m.material,
      thicknessMm: m.thicknessMm,
      minOpeningMm: m.minOpeningMm,
      minMetalMm: m.minMetalMm,
      despeckleAreaFraction: m.despeckleAreaFraction,
      note: m.note,
    },
    limits: { ...limits },
    approvalPage: { ...config.approvalPage },
    products: Object.fromEntries(
      (Object.keys(config.products) as (keyof Config['products'])[]).map((type) => {
        const p = config.products[type];
        return [
          type,
          {
            lengthRangeMm: { ...p.lengthRangeMm },
            widthRangeMm: { ...p.widthRangeMm },
            defaultWidthMm: p.defaultWidthMm,
            gapMm: p.gapMm,
            price: productPrice(type, config),
          },
        ];
      }),
    ),
    sizing: {
      forms: SIZE_FORMS_MESSAGE,
      bracelet: {
        wristMm: { ...sizing.bracelet.wristMm },
        fit: Object.keys(sizing.bracelet.easeMm),
        defaultFit: sizing.bracelet.defaultFit,
        easeMm: { ...sizing.bracelet.easeMm },
        formula: `lengthMm = wristMm + ease + pi x ${m.thicknessMm} - ${config.products.bracelet.gapMm} (gap)`,
      },
      ring: {
        usRingSize: { ...sizing.ring.usRingSize },
        formula: `lengthMm = pi x (${sizing.ring.innerDiameterMm.atSizeZero} + ${sizing.ring.innerDiameterMm.perSize} x usRingSize + ${m.thicknessMm})`,
      },
      lengthMm: 'Either product: the flat blank length itself, inside the product length range.',
      roundingMm: sizing.lengthRoundingMm,
      widthRule: `widthMm inside the product width range and at least lengthMm / ${image.cropAspect.max}; to follow a drawing, widthMm = lengthMm / drawn ratio.`,
    },
    image: {
      format: 'image/png',
      maxBytes: image.maxBytes,
      minShortSidePx: image.minShortSidePx,
      maxLongSidePx: image.maxLongSidePx,
      maxPixels: image.maxPixels,
      cropAspect: { ...image.cropAspect },
      recommendedPixels: `${image.recommendedPixels.width}x${image.recommendedPixels.height}`,
      rules: [...image.rules],
    },
    links: {
      capabilities: `${urls.apiBase}/capabilities`,
      jobs: `${urls.apiBase}/jobs`,
      openapi: `${urls.siteUrl}/openapi/agent-v1.json`,
      site: urls.siteUrl,
    },
    errorCodes: [...errorCodes],
  };
}

export type Capabilities = ReturnType<typeof buildCapabilities>;
