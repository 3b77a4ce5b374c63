import { z } from 'zod';
import { errorCodes } from '../errors.ts';

export const locationSchema = z.object({ x: z.number(), y: z.number(), r: z.number() });

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
