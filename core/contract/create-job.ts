import { z } from 'zod';
import { productTypes } from '../config.ts';

export const fitSchema = z.enum(['snug', 'comfort', 'loose']);
export type Fit = z.infer<typeof fitSchema>;

export const sizeSchema = z.union([
  z.strictObject({ wristMm: z.number(), fit: fitSchema.optional() }),
  z.strictObject({ usRingSize: z.number() }),
  z.strictObject({ lengthMm: z.number() }),
]);
export type SizeInput = z.infer<typeof sizeSchema>;

export const ATTRIBUTION_MAX = 64;
const attributionText = z.string().max(ATTRIBUTION_MAX);
export const attributionSchema = z.strictObject({
  agentPlatform: attributionText.optional(),
  integration: attributionText.optional(),
  skillVersion: attributionText.optional(),
  apiVersion: attributionText.optional(),
});
export type Attribution = z.infer<typeof attributionSchema>;

export const createJobRequestSchema = z.strictObject({
  productType: z.enum(productTypes),
  size: sizeSchema,
  widthMm: z.number(),
  attribution: attributionSchema.optional(),
});
export type CreateJobRequest = z.infer<typeof createJobRequestSchema>;

export const SIZE_FORMS_MESSAGE =
  'size must be exactly one of three forms: {"wristMm": number, "fit"?: "snug"|"comfort"|"loose"} (bracelet only), {"usRingSize": number} (ring only), or {"lengthMm": number} (either product).';

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{8,128}$/;
