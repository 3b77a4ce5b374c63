import type { TestService } from './service.ts';
import { signedUpAccount, siteClient } from './site.ts';

/** Markup an attacker types into echoed fields. */
export const SCRIPT = '<script>alert(1)</script>';
export const IMG = '"><img/src=x/onerror=alert(1)>';
/** Another site, posting forms to ours. */
export const EVIL = 'https://evil.example';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Requests as a probe or another site sends them to a test service: exactly the headers given (no
 * Origin unless asked for), a session cookie when one is given; accounts and ready jobs made
 * through core and the API.
 */
export function probes(service: TestService) {
  const { readyJob } = siteClient(service);
  const signUp = async (email: string): Promise<string> => (await signedUpAccount(service, email)).sessionToken;

  const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}, session?: string) =>
    service.fetch(path, { ...init, headers: { ...(session ? { cookie: `jds=${session}` } : {}), ...init.headers } });
  const postForm = (path: string, fields: Record<string, string>, session?: string, headers = {}) =>
    send(
      path,
      { method: 'POST', headers: { 'content-type': FORM, ...headers }, body: new URLSearchParams(fields).toString() },
      session,
    );
  const postJson = (path: string, body: unknown, session?: string, headers = {}) =>
    send(
      path,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
      session,
    );
  const dbRows = async (sql: string, args: string[] = []) =>
    (await service.db.orm.$client.execute({ sql, args })).rows.map((row) => ({ ...row }));

  return { readyJob, signUp, send, postForm, postJson, dbRows };
}

/** Status, headers without the per-request id, and body: what two answers must share to say the same. */
export async function answerOf(response: Response, token?: string) {
  // The account's own bucket counts every probe alike, whatever the token: its remaining count moves
  // by one per request and says nothing of the token, so it is compared as a shape, not a number.
  const remaining = (name: string, value: string) =>
    name === 'ratelimit' ? value.replace(/;r=\d+/g, ';r={r}') : value;
  const headers = [...response.headers]
    .filter(([name]) => name !== 'x-request-id')
    .map(([name, value]) => [name, token ? value.replaceAll(encodeURIComponent(token), '{token}') : value])
    .map(([name, value]) => [name!, remaining(name!, value!)]);
  return { status: response.status, headers, body: await response.text() };
}
