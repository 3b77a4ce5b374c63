import { z } from 'zod';
import { API_VERSION, CONTRACT_VERSION, configSchema, fitSchema, priceSchema, errorCodes } from '../../core/index.ts';
import { noted } from './registry.ts';

/*
 * The shape of `GET /capabilities` (core/capabilities.ts builds it from the configuration).
 * Wherever capabilities copy a configuration section as it is, the configuration's own schema
 * is reused, so a new limit or floor is described the moment it is published.
 */

const range = z.object({ min: z.number(), max: z.number() });

const product = z.object({
  lengthRangeMm: noted(range, 'Blank length range in millimetres.'),
  widthRangeMm: noted(range, 'Real width range in millimetres.'),
  defaultWidthMm: noted(z.number(), 'A good starting width; follow the drawing with widthMm = length / drawn ratio.'),
  gapMm: noted(z.number(), "The opening of a bracelet cuff (0 for a ring's closed band)."),
  price: priceSchema,
});

const config = configSchema.shape;

export const capabilitiesSchema = z.object({
  apiVersion: z.literal(API_VERSION),
  contractVersion: z.literal(CONTRACT_VERSION),
  manufacturing: config.manufacturing.omit({ densityGramsPerCm3: true }),
  limits: noted(config.limits, 'Live limits; these override every snapshot in the documentation.'),
  approvalPage: noted(config.approvalPage, 'The approval page is a Hebrew (right-to-left) web page for the person.'),
  products: noted(z.object({ bracelet: product, ring: product }), 'Per product type.'),
  sizing: noted(
    z.object({
      forms: z.string(),
      bracelet: z.object({
        wristMm: range,
        fit: z.array(fitSchema),
        defaultFit: fitSchema,
        easeMm: config.sizing.shape.bracelet.shape.easeMm,
        formula: z.string(),
      }),
      ring: z.object({ usRingSize: config.sizing.shape.ring.shape.usRingSize, formula: z.string() }),
      lengthMm: z.string(),
      roundingMm: z.number(),
      widthRule: z.string(),
    }),
    'The accepted size inputs of POST /jobs and how each becomes a blank length.',
  ),
  image: z.object({
    format: z.literal('image/png'),
    maxBytes: z.number().int(),
    minShortSidePx: z.number().int(),
    maxLongSidePx: z.number().int(),
    maxPixels: z.number().int(),
    cropAspect: noted(range, 'Allowed length / width of the drawn piece.'),
    recommendedPixels: z.string().regex(/^\d+x\d+$/),
    rules: noted(z.array(z.string()), 'Drawing constraints, to be used verbatim.'),
  }),
  links: z.object({ capabilities: z.url(), jobs: z.url(), openapi: z.url(), site: z.url() }),
  errorCodes: noted(z.array(z.enum(errorCodes)), 'The error catalogue, in catalogue order.'),
});
