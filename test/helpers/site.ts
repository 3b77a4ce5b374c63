import { expect } from 'vitest';
import { braceletBody, openJob, uploadPng, type OpenedJob } from './flows.ts';
import { makePng } from './png.ts';
import { SITE, type TestService } from './service.ts';

export const PASSWORD = 'correct horse battery';
const FORM = 'application/x-www-form-urlencoded';

/** The session token from a response's Set-Cookie. */
export function sessionFrom(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  const match = /^jds=([^;]+);/.exec(cookie);
  expect(match, cookie).not.toBeNull();
  return match![1]!;
}

/**
 * An account made through the core (no form, no rate-limit header), for tests about what a signed-in
 * person may do rather than about signing up.
 */
export async function signedUpAccount(
  service: TestService,
  email = 'dana@example.com',
  clientAddress = '192.0.2.1',
): Promise<{ sessionToken: string; accountId: string }> {
  const signed = await service.core.signUp({ email, password: PASSWORD, clientAddress });
  if (!signed.ok) throw new Error(signed.error.message);
  return { sessionToken: signed.value.sessionToken, accountId: signed.value.accountId };
}

export type ReadyJob = OpenedJob & { token: string; submission: any };

/**
 * The people's side of a test service: pages fetched as a browser would (with a session cookie),
 * forms posted from the site's own origin, accounts, and jobs made ready by the service's pipeline.
 */
export function siteClient(service: TestService) {
  let seed = 1;
  const png = () => makePng({ width: 300, height: 300, seed: seed++ });

  const get = (path: string, session?: string, headers: Record<string, string> = {}) =>
    service.fetch(path, { headers: { ...(session ? { cookie: `jds=${session}` } : {}), ...headers } });

  const postForm = (path: string, fields: Record<string, string>, session?: string, headers = {}) =>
    service.fetch(path, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: SITE, ...(session ? { cookie: `jds=${session}` } : {}), ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  async function signUp(email = 'person@example.com'): Promise<string> {
    const response = await postForm('/signup', { email, password: PASSWORD });
    expect(response.status).toBe(303);
    return sessionFrom(response);
  }

  /** A job whose first upload is ready, with its approval token. */
  async function readyJob(body: unknown = braceletBody): Promise<ReadyJob> {
    const job = await openJob(service, body);
    const response = await uploadPng(service, job, png());
    expect(response.status).toBe(200);
    const { submission }: any = await response.json();
    return { ...job, token: submission.approval.url.split('/a/')[1], submission };
  }

  return { png, get, postForm, signUp, readyJob };
}
