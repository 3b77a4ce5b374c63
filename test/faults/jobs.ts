import sharp from 'sharp';
import { expect } from 'vitest';
import type { SubmissionRow } from '../../db/schema.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { bearer, braceletBody, jsonInit } from '../helpers/flows.ts';

/** Anything the fault tests send API requests to: an in-process or spawned live server, a child service. */
export interface Api {
  api(path: string, init?: RequestInit): Promise<Response>;
}

export interface Opened {
  id: string;
  secret: string;
}

export const JSON_TYPE = /^application\/json/;

/** The job the `lace` design fixture is drawn for (bracelet, 155 x 20 mm). */
export function laceJobBody(): object {
  const { job } = designFixture('lace');
  return { productType: job.productType, size: { lengthMm: job.lengthMm }, widthMm: job.widthMm };
}

/**
 * The `lace` design fixture scaled up three times (4608 x 3072, 14 megapixels, still two-tone):
 * the same drawing for the same job, but a few seconds of processing, so that a fault can be
 * brought about while it runs.
 */
export async function bigLace(): Promise<Uint8Array> {
  const png = await designFixture('lace').png();
  return new Uint8Array(
    await sharp(png)
      .resize({ width: 3 * 1536, kernel: 'nearest' })
      .png()
      .toBuffer(),
  );
}

export async function openJob(server: Api, body: unknown = braceletBody): Promise<Opened> {
  const response = await server.api('/jobs', jsonInit(body));
  const json: any = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(201);
  return { id: json.job.id, secret: json.credentials.jobSecret };
}

/** The job as the service reads it now; its submissions tell whether anything was stored. */
export async function readJob(server: Api, job: Opened): Promise<any> {
  const response = await server.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
  expect(response.status).toBe(200);
  return ((await response.json()) as any).job;
}

/** `GET /jobs/{id}/submissions/{no}`'s submission, on a 200. */
export async function readSubmission(server: Api, job: Opened, no: number): Promise<any> {
  const response = await server.api(`/jobs/${job.id}/submissions/${no}`, { headers: bearer(job.secret) });
  expect(response.status).toBe(200);
  return ((await response.json()) as any).submission;
}

export function upload(server: Api, job: Opened, png: Uint8Array, init: RequestInit = {}): Promise<Response> {
  return server.api(`/jobs/${job.id}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', ...bearer(job.secret) },
    body: new Uint8Array(png),
    ...init,
  });
}

/** `GET /capabilities` answers, and fast: nothing held up the event loop. */
export async function expectResponsive(server: Api, withinMs = 1_000): Promise<void> {
  const started = performance.now();
  const response = await server.api('/capabilities', { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  expect(performance.now() - started).toBeLessThan(withinMs);
}

/** A stored outcome the resend of the same bytes must come back with, not `409 SUBMISSION_IN_PROGRESS`. */
export const PROCESSED = [200, 422];

/** The first row of an upload cut off under the service: closed as interrupted and uncounted. */
export function expectInterrupted(submission: any): void {
  expect(submission).toMatchObject({ status: 'failed_processing', geometry: null, files: null });
  expect(submission.validation.errors.map((f: { code: string }) => f.code)).toEqual(['PROCESSING_INTERRUPTED']);
}

/** The status column of one submission row, read straight from the database. */
export type RowStatus = SubmissionRow['status'] | undefined;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
export const MB = (bytes: number): number => Math.round(bytes / 1024 / 1024);
