import { z } from 'zod';
import { jobReplaySchema, jobSchema } from './job.ts';

/*
 * The bodies the REST routes answer with that wrap a shape of their own (http/routes/*), and the
 * adopt request: declared here once, with the contract's other shapes, so that a route's answer
 * is typed by the schema its OpenAPI operation publishes.
 */

/** `GET /jobs/{jobId}`: one job, never with credentials. */
export const jobEnvelopeSchema = z.object({ job: jobSchema });
/** `POST /jobs` replayed by its Idempotency-Key: the reduced job, no secret. */
export const jobReplayEnvelopeSchema = z.object({ job: jobReplaySchema });
/** `DELETE /jobs/{jobId}`. */
export const cancelledSchema = z.object({ ok: z.literal(true) });
/** `POST /handoff/{token}/decline`. */
export const declinedSchema = z.object({ ok: z.literal(true), status: z.literal('declined') });
/** `POST /handoff/{token}/adopt`'s JSON body. */
export const adoptRequestSchema = z.strictObject({ submissionNo: z.number().int().min(1).max(9999) });
/** `POST /handoff/{token}/adopt`: the design created in the person's account. */
export const designCreatedSchema = z.object({ designId: z.string() });
