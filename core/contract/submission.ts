import { z } from 'zod';
import { findingSchema, locationSchema } from './finding.ts';
import { approvalSchema, priceSchema } from './job.ts';

export const submissionStatuses = ['processing', 'ready', 'failed_validation', 'failed_processing'] as const;

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

/** The parameters a submission was analysed under, as the configuration and the pipeline held them. */
export const engineParametersSchema = z.object({
  minOpeningMm: z.number(),
  minMetalMm: z.number(),
  despeckleAreaFraction: z.number(),
  /** despeckleAreaFraction x the job's length x width, unrounded, as the pipeline used it. */
  minOpeningAreaMm2: z.number(),
  thicknessMm: z.number(),
  densityGramsPerCm3: z.number(),
  cropAspect: z.object({ min: z.number(), max: z.number() }),
  /** core/pipeline/tolerances.ts and config image.proportion by name; a record, so a new tolerance needs no contract change. */
  tolerances: z.record(z.string(), z.number()),
});

/**
 * What produced a submission's outcome: the input's hash, the engine and the parameters in
 * force. An addition to the contract's Submission; null on submissions stored before it existed.
 */
export const engineSchema = z.object({
  inputSha256: z.string().regex(/^[0-9a-f]{64}$/),
  version: z.string(),
  pipelineRevision: z.number().int().positive(),
  parameters: engineParametersSchema,
});
export type Engine = z.infer<typeof engineSchema>;

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
  engine: engineSchema.nullable(),
});
export type Submission = z.infer<typeof submissionSchema>;

export const submissionEnvelopeSchema = z.object({ submission: submissionSchema });
