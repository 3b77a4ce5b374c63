import { z } from 'zod';
import { findingSchema, locationSchema } from './finding.ts';
import { approvalSchema, priceSchema } from './job.ts';

export const submissionStatuses = ['processing', 'ready', 'failed_validation', 'failed_processing'] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

/** How close the design came to one floor: its narrowest place as the final check measured it. */
export const marginSchema = z.object({
  widthMm: z.number(),
  floorMm: z.number(),
  at: locationSchema,
});
export type Margin = z.infer<typeof marginSchema>;

export const marginsSchema = z.object({
  narrowestMetal: marginSchema.nullable(),
  narrowestOpening: marginSchema.nullable(),
  searchedUpToMm: z.object({ metal: z.number(), opening: z.number() }),
});
export type Margins = z.infer<typeof marginsSchema>;

export const validationSchema = z.object({
  valid: z.boolean(),
  errors: z.array(findingSchema),
  warnings: z.array(findingSchema),
  margins: marginsSchema.optional(),
});
export type Validation = z.infer<typeof validationSchema>;

export const geometrySchema = z.object({
  lengthMm: z.number(),
  widthMm: z.number(),
  drawnRatio: z.number(),
  stretch: z.number(),
  cuts: z.number().int().nonnegative(),
  openAreaPct: z.number(),
  estWeightGrams: z.number(),
});
export type Geometry = z.infer<typeof geometrySchema>;

export const submissionSchema = z.object({
  no: z.number().int().min(1).max(9999),
  status: z.enum(submissionStatuses),
  validation: validationSchema,
  geometry: geometrySchema.nullable(),
  files: z.object({ cutoutsSvg: z.url(), previewSvg: z.url() }).nullable(),
  approval: approvalSchema.nullable(),
  price: priceSchema,
  createdAt: z.iso.datetime(),
  durationMs: z.number().int().nonnegative().nullable(),
});
export type Submission = z.infer<typeof submissionSchema>;

export const submissionEnvelopeSchema = z.object({ submission: submissionSchema });
