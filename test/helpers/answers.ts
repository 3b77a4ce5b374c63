import { expect } from 'vitest';
import { openJob, uploadPng, type OpenedJob } from './flows.ts';
import { makePng } from './png.ts';
import type { TestService } from './service.ts';

/** The content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A job with a ready submission 1. */
export async function jobWithReadySubmission(service: TestService, seed = 1): Promise<OpenedJob> {
  const job = await openJob(service);
  const response = await uploadPng(service, job, makePng({ width: 300, height: 300, seed }));
  expect(response.status, await response.clone().text()).toBe(200);
  return job;
}

/** A job whose submission 1 failed validation. */
export async function jobWithFailedSubmission(service: TestService, seed = 2): Promise<OpenedJob> {
  const job = await openJob(service);
  const png = makePng({ width: 300, height: 300, seed });
  service.pipeline.script(png, 'invalid');
  const response = await uploadPng(service, job, png);
  expect(response.status, await response.clone().text()).toBe(422);
  return job;
}

/** Every header but `X-Request-Id`, which is new for each request by design. */
export const headerMap = (response: Response): Record<string, string> =>
  Object.fromEntries([...response.headers.entries()].filter(([name]) => name !== 'x-request-id'));
