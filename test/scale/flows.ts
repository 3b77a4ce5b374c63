import { expect } from 'vitest';
import { braceletBody } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import type { Instance } from './cluster.ts';

/**
 * A caller address nobody else in the run has (IPv6 documentation prefix), so per-address buckets
 * start empty: each in a /64 of its own, as per-address buckets count an IPv6 client by its /64.
 */
let callers = 0;
export const freshAddress = () => `2001:db8:${(++callers).toString(16)}::1`;

/** A small valid PNG whose bytes differ per seed (1 to 96). */
export const png = (seed: number) => makePng({ width: 300, height: 300, seed });

export interface Job {
  id: string;
  secret: string;
}

export const postJob = (instance: Instance, address: string, headers: Record<string, string> = {}) =>
  instance.api(
    '/jobs',
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(braceletBody) },
    address,
  );

export async function openJob(instance: Instance, address = freshAddress()): Promise<Job> {
  const response = await postJob(instance, address);
  const body: any = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { id: body.job.id, secret: body.credentials.jobSecret };
}

export const upload = (instance: Instance, job: Job, bytes: Uint8Array, address = freshAddress()) =>
  instance.api(
    `/jobs/${job.id}/submissions`,
    {
      method: 'POST',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${job.secret}` },
      body: bytes as Uint8Array<ArrayBuffer>,
    },
    address,
  );

export async function readJob(instance: Instance, job: Job): Promise<any> {
  const response = await instance.api(`/jobs/${job.id}`, { headers: { authorization: `Bearer ${job.secret}` } }, '::1');
  expect(response.status).toBe(200);
  return ((await response.json()) as any).job;
}

/** Status and error code of each answer, the body read once. */
export async function outcomes(answers: Response[]): Promise<{ status: number; code?: string; body: any }[]> {
  return Promise.all(
    answers.map(async (r) => {
      const body: any = await r.json();
      return { status: r.status, code: body?.error?.code, body };
    }),
  );
}

/** How many answers had each `status code` (or bare status), e.g. `{ '200': 10, '409 TOO_MANY_SUBMISSIONS': 5 }`. */
export function tally(list: { status: number; code?: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, code } of list) {
    const key = code ? `${status} ${code}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Signs up through the real form on `instance`; answers the session cookie (`name=value`). */
export async function signUp(instance: Instance, email: string): Promise<string> {
  const response = await instance.request(
    '/signup',
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'correct horse battery' }).toString(),
      redirect: 'manual',
    },
    freshAddress(),
  );
  expect(response.status).toBe(303);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toMatch(/=/);
  return cookie!;
}

export const adopt = (instance: Instance, token: string, cookie: string) =>
  instance.api(
    `/handoff/${token}/adopt`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ submissionNo: 1 }),
    },
    freshAddress(),
  );

export const decline = (instance: Instance, token: string) =>
  instance.api(`/handoff/${token}/decline`, { method: 'POST' }, freshAddress());
