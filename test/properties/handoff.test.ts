/* Any body, token, cookie and origin on the handoff routes: no 5xx, no design another site asked for. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORM, handoffStep, headerValue, isJsonType, parsedBody } from '../helpers/arbitraries.ts';
import { expectCatalogueAnswer } from '../helpers/invariants.ts';
import { SITE } from '../helpers/service.ts';
import { signedUpAccount } from '../helpers/site.ts';
import { propertyService, runs, TIMEOUT } from '../helpers/property-runs.ts';

const { service, rows, expectConsistentDatabase, readyJob } = propertyService();

/**
 * decisions §5: another site's request has no session (Sec-Fetch-Site first, else Origin; `null`
 * proves nothing).
 */
const fromOurSite = (origin: string | undefined, fetchSite: string | undefined) =>
  fetchSite ? fetchSite === 'same-origin' : origin === undefined || origin === SITE;

/** Every job here has one submission, and it stays the current one. */
const CURRENT = 1;

/**
 * The version a decline is pinned to (docs/decisions.md, an addition): a form's `submissionNo`
 * field, or a JSON object's (of at most 4096 bytes); `invalid` when given but not an integer from
 * 1 to 9999; any other body pins nothing.
 */
function pinOf(type: string | undefined, body: string | Uint8Array): number | 'invalid' | undefined {
  const given = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 9999 ? value : 'invalid';
  if (type === FORM) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    const field = new URLSearchParams(text).get('submissionNo');
    if (field === null) return undefined;
    return /^[0-9]{1,4}$/.test(field) ? given(Number(field)) : 'invalid';
  }
  // The route reads at most 4096 bytes of JSON; a longer body is ignored like any unreadable one.
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (!isJsonType(type) || bytes > 4096) return undefined;
  const json = parsedBody(body)?.json;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('submissionNo' in json)) return undefined;
  return given(json.submissionNo);
}

describe('the handoff routes with any body, token, cookie and origin', () => {
  it(
    'move a job only along ready → declined | approved, for a signed-in same-site person, and answer from the catalogue',
    async () => {
      const sessions: Record<string, { token: string; accountId: string }> = {};
      for (const [name, email] of [
        ['first', 'first@example.com'],
        ['second', 'second@example.com'],
      ] as const) {
        const { sessionToken, accountId } = await signedUpAccount(service, email);
        sessions[name] = { token: sessionToken, accountId };
      }
      await fc.assert(
        fc.asyncProperty(fc.array(handoffStep, { minLength: 1, maxLength: 5 }), async (steps) => {
          const job = await readyJob();
          let state: { status: string; owner?: string; designId?: string } = { status: 'ready' };
          for (const step of steps) {
            const token = step.token === 'live' ? job.token : step.token;
            const session = step.cookie === 'first' || step.cookie === 'second' ? sessions[step.cookie]! : undefined;
            const cookie = session
              ? `jds=${session.token}`
              : step.cookie === undefined
                ? undefined
                : headerValue(step.cookie);
            const headers: Record<string, string> = {};
            if (step.type !== undefined) headers['content-type'] = step.type;
            if (cookie) headers.cookie = cookie;
            if (step.origin) headers.origin = step.origin;
            if (step.fetchSite) headers['sec-fetch-site'] = step.fetchSite;
            const init = { method: 'POST', headers, body: step.body as BodyInit };
            const response = await service.api(`/handoff/${token}/${step.action}`, init);
            const where = `${response.status} for ${JSON.stringify({ ...step, body: String(step.body) })}`;
            const form = step.type === FORM;
            const answer = response.clone();
            if (form) {
              expect(response.status, where).toBe(303);
              expect(response.headers.get('location'), where).toMatch(/^\/(?![/\\])/);
            } else await expectCatalogueAnswer(response, where);

            const live = step.token === 'live';
            const signedIn = session !== undefined && fromOurSite(step.origin, step.fetchSite);
            const [row] = await rows('SELECT status FROM jobs WHERE id = ?', [job.id]);
            const [design] = await rows('SELECT id, account_id FROM designs WHERE job_id = ?', [job.id]);
            const before = state;
            const pin = step.action === 'decline' ? pinOf(step.type, step.body) : undefined;
            const onCurrent = pin === undefined || pin === CURRENT;
            if (live && step.action === 'decline' && state.status !== 'approved' && onCurrent) {
              state = { status: 'declined' };
            }
            if (live && step.action === 'adopt' && signedIn && state.status === 'ready' && row!.status === 'approved') {
              state = { status: 'approved', owner: session.accountId, designId: String(design!.id) };
            }
            expect([row!.status, design?.account_id, design?.id], where).toEqual([
              state.status,
              state.owner,
              state.designId,
            ]);
            if (form) continue;
            const body: any = await answer.json();
            if (step.action === 'decline') {
              const expected =
                pin === 'invalid' ? 400 : !live ? 404 : before.status === 'approved' || !onCurrent ? 409 : 200;
              expect(answer.status, where).toBe(expected);
            } else if (!signedIn) {
              expect([answer.status, body.error.code], where).toEqual([401, 'ACCOUNT_REQUIRED']);
            } else if (state !== before) {
              expect([answer.status, body.designId], where).toEqual([201, state.designId]);
            } else if (answer.status === 200) {
              expect([live, session.accountId, body.designId], where).toEqual([true, state.owner, state.designId]);
            } else expect(answer.status, where).not.toBe(201);
          }
          await expectConsistentDatabase();
        }),
        runs(40),
      );
    },
    TIMEOUT,
  );
});
