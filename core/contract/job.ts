import { z } from 'zod';
import { productTypes } from '../config.ts';
import { declineChoices } from '../handoff/decline-reason.ts';
import { attributionSchema, sizeSchema } from './create-job.ts';

export const jobStatuses = ['open', 'ready', 'approved', 'declined', 'cancelled', 'expired'] as const;
export type JobStatus = (typeof jobStatuses)[number];
const approvalStatuses = ['pending', 'approved', 'declined'] as const;

const timestamp = z.iso.datetime();

export const priceSchema = z.object({
  currency: z.string(),
  base: z.number(),
  shipping: z.number(),
  total: z.number(),
  vatIncluded: z.boolean(),
  note: z.string(),
});
export type Price = z.infer<typeof priceSchema>;

export const dimsSchema = z.object({
  lengthMm: z.number(),
  widthMm: z.number(),
  gapMm: z.number(),
  thicknessMm: z.number(),
});

export const drawingSchema = z.object({
  ratio: z.number(),
  recommendedPixels: z.string().regex(/^\d+x\d+$/),
  orientation: z.literal('landscape'),
  minOpeningAreaMm2: z.number(),
  stripPx: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  mmPerPx: z.number(),
  minOpeningPx: z.number(),
  minMetalPx: z.number(),
});
export type Drawing = z.infer<typeof drawingSchema>;

/** An addition to the contract: why the person declined, as they said it on the approval page. */
export const declineReasonSchema = z.object({
  choice: z.enum(declineChoices).nullable(),
  text: z.string().nullable(),
});

export const approvalSchema = z.object({
  url: z.url(),
  status: z.enum(approvalStatuses),
  expiresAt: timestamp,
  /** Set while `status` is `declined` and the person gave a reason; null otherwise (always present). */
  declineReason: declineReasonSchema.nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;

export const latestSubmissionSchema = z.object({
  no: z.number().int(),
  status: z.enum(['processing', 'ready', 'failed_validation', 'failed_processing']),
  errorCodes: z.array(z.string()),
  warningCodes: z.array(z.string()),
  createdAt: timestamp,
});

export const jobSchema = z.object({
  id: z.uuid(),
  status: z.enum(jobStatuses),
  productType: z.enum(productTypes),
  dims: dimsSchema,
  sizeInput: sizeSchema,
  drawing: drawingSchema,
  limits: z.object({ submissionsLeft: z.number().int().nonnegative() }),
  latestSubmission: latestSubmissionSchema.nullable(),
  approval: approvalSchema.nullable(),
  price: priceSchema,
  attribution: attributionSchema.optional(),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export type Job = z.infer<typeof jobSchema>;

export const jobReplaySchema = jobSchema.pick({
  id: true,
  status: true,
  productType: true,
  dims: true,
  drawing: true,
  limits: true,
  createdAt: true,
  expiresAt: true,
});
export type JobReplay = z.infer<typeof jobReplaySchema>;

const JOB_SECRET_PATTERN = /^ajs_[A-Za-z0-9_-]{43}$/;

export const createdJobSchema = z.object({
  job: jobSchema,
  credentials: z.object({ jobSecret: z.string().regex(JOB_SECRET_PATTERN) }),
});
