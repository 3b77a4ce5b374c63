import { expect } from 'vitest';
import type { TestService } from './service.ts';

/**
 * Rate limits far above what one test sends from one address (a `config` override's `limits`).
 * A test that needs a limit of its own sets it over these: `{ ...roomyRateLimits, jobsPerHourPerIp: 6 }`.
 */
export const roomyRateLimits = {
  jobsPerHourPerIp: 100_000,
  globalJobsPerDay: 100_000,
  submissionsPerHourPerIp: 100_000,
  globalSubmissionsPerMinute: 100_000,
  globalSubmissionsPerDay: 100_000,
  adoptsPerHourPerAccount: 100_000,
};

/** Only opening jobs raised, for tests that hold uploads to their own (or the default) limits. */
export const roomyJobLimits = {
  jobsPerHourPerIp: roomyRateLimits.jobsPerHourPerIp,
  globalJobsPerDay: roomyRateLimits.globalJobsPerDay,
};

export const braceletBody = { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 };

export const jsonInit = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

export interface OpenedJob {
  id: string;
  secret: string;
  body: any;
}

/** Opens a job and returns its id and secret; fails the test on anything but 201. */
export async function openJob(
  service: TestService,
  body: unknown = braceletBody,
  address?: string,
): Promise<OpenedJob> {
  const response = await service.api('/jobs', jsonInit(body), address);
  const json: any = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(201);
  return { id: json.job.id, secret: json.credentials.jobSecret, body: json };
}

export function uploadPng(
  service: TestService,
  job: OpenedJob,
  png: Uint8Array,
  address?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.api(
    `/jobs/${job.id}/submissions`,
    {
      method: 'POST',
      headers: { 'content-type': 'image/png', ...bearer(job.secret), ...headers },
      body: png as Uint8Array<ArrayBuffer>,
    },
    address,
  );
}

export async function getJob(service: TestService, job: OpenedJob): Promise<any> {
  const response = await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
  expect(response.status).toBe(200);
  return ((await response.json()) as any).job;
}

export async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; message: string; body: any }> {
  const body: any = await response.json();
  return { status: response.status, code: body.error?.code, message: body.error?.message, body };
}
