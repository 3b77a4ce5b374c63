import { describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../core/urls.ts';
import { he } from '../web/strings.ts';
import { roomyRateLimits } from './helpers/flows.ts';
import { answerOf, EVIL, probes } from './helpers/security-probes.ts';
import { servicePerTest } from './helpers/service.ts';
import { PASSWORD } from './helpers/site.ts';

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { readyJob, signUp, postForm, dbRows } = probes(service);

describe('cross-site form posts', () => {
  const crossSite = [
    { origin: EVIL },
    { 'sec-fetch-site': 'cross-site', origin: 'null' },
    { 'sec-fetch-site': 'same-site' },
  ];

  it('approve, sign-up and sign-out posted from another site are refused and change nothing', async () => {
    const job = await readyJob();
    const session = await signUp('dana@example.com');
    for (const headers of crossSite) {
      const where = JSON.stringify(headers);
      const adopt = await postForm(
        `${API_BASE_PATH}/handoff/${job.token}/adopt`,
        { submissionNo: '1' },
        session,
        headers,
      );
      // Treated as having no session: off to sign in, nothing approved.
      expect([adopt.status, adopt.headers.get('location')], where).toEqual([
        303,
        `/signin?next=${encodeURIComponent(`/a/${job.token}/approve?n=1`)}`,
      ]);
      const signUpPost = await postForm(
        '/signup',
        { email: 'mallory@example.com', password: PASSWORD },
        undefined,
        headers,
      );
      const signOut = await postForm('/signout', {}, session, headers);
      for (const [what, response] of [
        ['sign-up', signUpPost],
        ['sign-out', signOut],
      ] as const) {
        expect(response.status, `${what} ${where}`).toBe(403);
        expect(response.headers.get('set-cookie'), `${what} ${where}`).toBeNull();
        expect(await response.text()).toContain(he.crossSite.title);
      }
    }
    // Origin null alone proves nothing (a sandboxed frame on any site sends it): no session for it.
    const nullOrigin = await postForm(`${API_BASE_PATH}/handoff/${job.token}/adopt`, { submissionNo: '1' }, session, {
      origin: 'null',
    });
    expect(nullOrigin.headers.get('location')).toBe(
      `/signin?next=${encodeURIComponent(`/a/${job.token}/approve?n=1`)}`,
    );
    expect(await dbRows('SELECT status, approval_status FROM jobs WHERE id = ?', [job.id])).toEqual([
      { status: 'ready', approval_status: 'pending' },
    ]);
    expect(await dbRows('SELECT id FROM designs')).toEqual([]);
    expect((await dbRows('SELECT email FROM accounts')).map((row) => row.email)).toEqual(['dana@example.com']);
    expect(await service.core.sessionAccount(session)).toMatchObject({
      ok: true,
      value: { email: 'dana@example.com' },
    });
  });

  it('decline carries no ambient authority: the cookie plays no part, so another site can do no more than the token allows', async () => {
    // decisions §5: decline needs only the token. A page that knows the token could post it
    // directly, so refusing cross-site declines would protect nothing; the cookie must not matter.
    const session = await signUp('dana@example.com');
    const withCookie = await readyJob();
    const withoutCookie = await readyJob();
    const a = await postForm(`${API_BASE_PATH}/handoff/${withCookie.token}/decline`, {}, session, { origin: EVIL });
    const b = await postForm(`${API_BASE_PATH}/handoff/${withoutCookie.token}/decline`, {}, undefined, {
      origin: EVIL,
    });
    expect(await answerOf(a, withCookie.token)).toEqual(await answerOf(b, withoutCookie.token));
    const unknown = await postForm(`${API_BASE_PATH}/handoff/zzzzzzzzzzzz/decline`, {}, session, { origin: EVIL });
    expect(unknown.headers.get('location')).toBe('/a/zzzzzzzzzzzz?e=NOT_FOUND');
    expect(await dbRows(`SELECT count(*) AS n FROM jobs WHERE status = 'declined'`)).toEqual([{ n: 2 }]);
  });
});
