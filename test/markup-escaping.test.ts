import { describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../core/urls.ts';
import { he } from '../web/strings.ts';
import { braceletBody, roomyRateLimits } from './helpers/flows.ts';
import { IMG, probes, SCRIPT } from './helpers/security-probes.ts';
import { servicePerTest, SITE } from './helpers/service.ts';

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { readyJob, signUp, send, postForm, postJson } = probes(service);

describe('markup in echoed fields is escaped on every page', () => {
  const hostileEmail = `${IMG}${SCRIPT}@example.com`;
  const escapedEmail = '&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com';
  const attribution = { agentPlatform: SCRIPT, integration: '"><img src=x onerror=alert(1)>', skillVersion: IMG };

  function expectEscaped(html: string, where: string, emailShown = true): void {
    expect(html, where).not.toMatch(/<script|<img[ /]src=x|<svg/i);
    expect(html, where).not.toContain('onerror=alert(1)>');
    if (emailShown) expect(html, where).toContain(escapedEmail);
  }

  it("the approver's email and the agent's attribution stay text on the approval page in each state, the design page and the 404 page", async () => {
    const person = await signUp(hostileEmail);
    const someoneElse = await signUp(`${SCRIPT}@other.example`);
    const declined = await readyJob({ ...braceletBody, attribution });
    const approved = await readyJob({ ...braceletBody, attribution });
    const pending = await readyJob({ ...braceletBody, attribution });
    expect((await send(`${API_BASE_PATH}/handoff/${declined.token}/decline`, { method: 'POST' })).status).toBe(200);
    const adopt = await postJson(`${API_BASE_PATH}/handoff/${approved.token}/adopt`, { submissionNo: 1 }, person);
    expect(adopt.status).toBe(201);
    const { designId } = (await adopt.json()) as any;

    const pages: [string, string, string, string | undefined][] = [
      ['pending', `/a/${pending.token}`, he.approval.pendingHeading, person],
      ['declined', `/a/${declined.token}`, he.approval.declinedHeading, person],
      ['approved by the viewer', `/a/${approved.token}`, he.approval.approvedByYou, person],
      ['design', `/designs/${designId}`, he.design.download, person],
      ['404', '/a/zzzzzzzzzzzz', he.notFound.title, person],
      ['signed in already', '/signin', he.signIn.alreadySignedIn, person],
    ];
    for (const [where, path, marker, session] of pages) {
      const html = await (await send(path, {}, session)).text();
      expect(html, where).toContain(marker);
      expectEscaped(html, where);
    }
    const seenBySomeoneElse = await (await send(`/a/${approved.token}`, {}, someoneElse)).text();
    expect(seenBySomeoneElse).toContain(he.approval.approvedBySomeone);
    expect(seenBySomeoneElse).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@other.example');
    expectEscaped(seenBySomeoneElse, 'approved by someone else', false);
  });

  it('the email and the next path typed into the sign-in and sign-up forms come back escaped', async () => {
    const next = `/a/${IMG}`;
    const escapedNext = '/a/&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;';
    for (const path of ['/signin', '/signup']) {
      const shown = await (await send(`${path}?next=${encodeURIComponent(next)}`)).text();
      expect(shown, path).toContain(`<input type="hidden" name="next" value="${escapedNext}">`);
      expectEscaped(shown, path, false);
      const refused = await postForm(path, { email: hostileEmail, password: 'short', next }, undefined, {
        origin: SITE,
      });
      expect(refused.status, path).toBe(400);
      const html = await refused.text();
      expect(html, path).toContain(`value="${escapedEmail}"`);
      expect(html, path).toContain(`value="${escapedNext}"`);
      expectEscaped(html, `refused ${path}`);
    }
  });
});
