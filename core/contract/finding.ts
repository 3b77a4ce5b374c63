import { z } from 'zod';
import { errorCodes } from '../errors.ts';

/** The same place in the uploaded image's own pixels: x right and y down from its top-left corner. */
export const pixelPlaceSchema = z.object({ x: z.number().int(), y: z.number().int(), r: z.number().int() });

export const locationSchema = z.object({
  x: z.number(),
  y: z.number(),
  r: z.number(),
  px: pixelPlaceSchema.optional(),
});

export const findingSchema = z.object({
  code: z.enum(errorCodes),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  agent_instruction: z.string(),
  locations: z.array(locationSchema).optional(),
  details: z.string().optional(),
  retryable: z.boolean().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    agent_instruction: z.string().optional(),
    retryable: z.boolean().optional(),
  }),
});
