import { describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { formatPrice } from '../../web/format.ts';
import { he } from '../../web/strings.ts';
import { bearer, braceletBody, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import {
  expectHebrewPage,
  expectNoInjectedMarkup,
  expectPageHeaders,
  HOSTILE,
  picturesOf,
  pngSize,
} from '../helpers/page-checks.ts';
import { startService, servicePerTest } from '../helpers/service.ts';
import { PASSWORD, sessionFrom, siteClient } from '../helpers/site.ts';

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { png, get, postForm, signUp, readyJob } = siteClient(service);
const notFoundHtml = async () => (await get('/no-such-page')).text();

describe('the approval page /a/{token}, declining and approving through the app', () => {
  it('GET /a/{token} shows the pending design with both forms and no markup from storage', async () => {
    const job = await readyJob();
    const response = await get(`/a/${job.token}`);
    expect(response.status).toBe(200);
    expectPageHeaders(response, 'same-origin');
    const html = await response.text();
    expectHebrewPage(html);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(he.approval.pendingHeading);
    expect(html).toContain('צמיד');
    expect(html).toContain(formatPrice(job.submission.price.total, 'ILS'));
    expect(html).toContain(`href="/a/${job.token}/approve?n=1"`);
    expect(html).toContain(`action="/a/${job.token}/decline"`);
    // The pictures' sizes on the page are the served pictures' own.
    const pictures = picturesOf(html);
    expect(pictures.map((p) => p.src)).toEqual([`/a/${job.token}/worn.png`, `/a/${job.token}/flat.png`]);
    for (const picture of pictures) {
      const served = await get(picture.src);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(pngSize(Buffer.from(await served.arrayBuffer()))).toEqual({
        width: picture.width,
        height: picture.height,
      });
    }
    expectNoInjectedMarkup(html);
  });

  it('HEAD /a/{token} answers like GET without a body', async () => {
    const job = await readyJob();
    const response = await service.fetch(`/a/${job.token}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('an attribution full of markup never reaches the page', async () => {
    const attribution = { agentPlatform: HOSTILE, integration: `"'><img src=x>`, skillVersion: '1', apiVersion: 'v1' };
    const job = await readyJob({ ...braceletBody, attribution });
    const html = await (await get(`/a/${job.token}`)).text();
    expectNoInjectedMarkup(html);
    expect(html).not.toContain('<img src=x>');
  });

  it('unknown, malformed, cancelled and expired links show the site 404 page', async () => {
    const unknown = await get('/a/abcdefghijkm');
    expect(unknown.status).toBe(404);
    const notFound = await notFoundHtml();
    expect(await unknown.text()).toBe(notFound);
    expect((await get('/a/%3Cscript%3E')).status).toBe(404);

    const cancelled = await readyJob();
    const del = await service.api(`/jobs/${cancelled.id}`, { method: 'DELETE', headers: bearer(cancelled.secret) });
    expect(del.status).toBe(200);
    const afterCancel = await get(`/a/${cancelled.token}`);
    expect(afterCancel.status).toBe(404);
    expect(await afterCancel.text()).toBe(notFound);

    const expiring = await readyJob();
    service.clock.advance(8 * DAY);
    const afterExpiry = await get(`/a/${expiring.token}`);
    expect(afterExpiry.status).toBe(404);
    expect(await afterExpiry.text()).toBe(notFound);
  });

  it('decline: the form post returns to the page, which shows the declined state', async () => {
    const job = await readyJob();
    const response = await postForm(`/api/agent/v1/handoff/${job.token}/decline`, {});
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/a/${job.token}`);
    const page = await get(`/a/${job.token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(he.approval.declinedHeading);
    expect(html).toContain(he.approval.declinedBody);
    expect(html).not.toContain('/adopt"');
  });

  it('approve: sign-in first, then the design, then the page says approved with a link for the approver', async () => {
    const job = await readyJob();
    const anonymous = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' });
    expect(anonymous.status).toBe(303);
    const signInPath = anonymous.headers.get('location')!;
    const confirm = `/a/${job.token}/approve?n=1`;
    expect(signInPath).toBe(`/signin?next=${encodeURIComponent(confirm)}`);

    const signInPage = await get(signInPath);
    expect(signInPage.status).toBe(200);
    const signInHtml = await signInPage.text();
    expect(signInHtml).toContain(he.accountFor.approval);
    expect(signInHtml).toContain(`<input type="hidden" name="next" value="${confirm.replace('&', '&amp;')}">`);
    expect(signInHtml).toContain(`href="/signup?next=${encodeURIComponent(confirm)}"`);

    const signedUp = await postForm('/signup', { email: 'Person@Example.com', password: PASSWORD, next: confirm });
    expect(signedUp.status).toBe(303);
    expect(signedUp.headers.get('location')).toBe(confirm);
    const session = sessionFrom(signedUp);

    const pageSignedIn = await (await get(confirm, session)).text();
    expect(pageSignedIn).toContain('person@example.com');
    expect(pageSignedIn).toContain('action="/signout"');
    expect(pageSignedIn).toContain(`action="/api/agent/v1/handoff/${job.token}/adopt"`);
    expect(pageSignedIn).toContain('<input type="hidden" name="submissionNo" value="1">');

    const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, session);
    expect(adopted.status).toBe(303);
    const designPath = adopted.headers.get('location')!;
    expect(designPath).toMatch(/^\/designs\/[0-9a-f-]{36}$/);

    const design = await get(designPath, session);
    expect(design.status).toBe(200);
    expectPageHeaders(design);
    const designHtml = await design.text();
    expectHebrewPage(designHtml);
    expect(designHtml).toContain(he.design.heading('צמיד'));
    expect(designHtml).toContain(`href="${designPath}/cutouts.svg" download`);

    const file = await get(`${designPath}/cutouts.svg`, session);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const designId = designPath.split('/').pop();
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="design-${designId}.svg"`);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    const cutting = await service.api(`/jobs/${job.id}/submissions/1/cutouts.svg`, { headers: bearer(job.secret) });
    expect(await file.text()).toBe(await cutting.text());

    const approved = await (await get(`/a/${job.token}`, session)).text();
    expect(approved).toContain(he.approval.approvedHeading);
    expect(approved).toContain(`href="${designPath}"`);
    expect(approved).not.toContain('/adopt"');

    const someoneElse = await signUp('other@example.com');
    const otherView = await (await get(`/a/${job.token}`, someoneElse)).text();
    expect(otherView).toContain(he.approval.approvedBySomeone);
    expect(otherView).not.toContain('/designs/');

    const stranger = await get(designPath, someoneElse);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).toContain(he.notFound.title);
    expect((await get(`${designPath}/cutouts.svg`, someoneElse)).status).toBe(404);

    const noSession = await get(designPath);
    expect(noSession.status).toBe(303);
    expect(noSession.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(designPath)}`);
    const noSessionFile = await get(`${designPath}/cutouts.svg`);
    expect(noSessionFile.status).toBe(303);
    expect(noSessionFile.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(designPath)}`);

    const otherAdopt = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, someoneElse);
    expect(otherAdopt.headers.get('location')).toBe(`/a/${job.token}?e=ALREADY_APPROVED`);
    const refused = await (await get(otherAdopt.headers.get('location')!, someoneElse)).text();
    expect(refused).toContain(he.approval.errors.ALREADY_APPROVED);
  });

  it('the approve form works as Chromium posts it from the page (Origin: null, Sec-Fetch-Site: same-origin)', async () => {
    // A page with Referrer-Policy: no-referrer (an older cached one) makes a browser post `Origin: null`;
    // Sec-Fetch-Site still says it came from this origin.
    const job = await readyJob();
    const session = await signUp();
    const browserLike = { origin: 'null', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' };
    const adopted = await postForm(
      `/api/agent/v1/handoff/${job.token}/adopt`,
      { submissionNo: '1' },
      session,
      browserLike,
    );
    expect(adopted.status).toBe(303);
    expect(adopted.headers.get('location')).toMatch(/^\/designs\/[0-9a-f-]{36}$/);
  });

  it('approving a page whose submission was replaced explains it and shows the newer one', async () => {
    const job = await readyJob();
    const session = await signUp();
    expect((await uploadPng(service, job, png())).status).toBe(200);
    const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, session);
    expect(adopted.status).toBe(303);
    expect(adopted.headers.get('location')).toBe(`/a/${job.token}?e=SUBMISSION_SUPERSEDED`);
    const html = await (await get(adopted.headers.get('location')!, session)).text();
    expect(html).toContain(he.approval.errors.SUBMISSION_SUPERSEDED);
    expect(html).toContain(`href="/a/${job.token}/approve?n=2"`);
  });

  it('?e= never reflects its value', async () => {
    const job = await readyJob();
    const html = await (await get(`/a/${job.token}?e=${encodeURIComponent(HOSTILE)}`)).text();
    expect(html).toContain(he.approval.errors.other);
    expectNoInjectedMarkup(html);
  });

  it('while the API is switched off, approval links show the site 404 page', async () => {
    const off = await startService({ config: { limits: roomyRateLimits }, apiEnabled: false, dir: service.dir });
    try {
      expect(off.dir).toBe(service.dir);
      const job = await readyJob();
      const response = await off.fetch(`/a/${job.token}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(await (await off.fetch('/no-such-page')).text());
    } finally {
      await off.close();
    }
  });
});
