import { describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { formatPrice } from '../../web/format.ts';
import { he } from '../../web/strings.ts';
import { roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerTest, startService } from '../helpers/service.ts';
import { PASSWORD, sessionFrom, siteClient } from '../helpers/site.ts';

/** The one confirmation before a design is locked, the way back to it from sign-in, and after. */

const service = servicePerTest({ config: { limits: roomyRateLimits } });
const site = () => siteClient(service);
const adoptAction = (token: string) => `action="/api/agent/v1/handoff/${token}/adopt"`;

describe('the approval confirmation /a/{token}/approve', () => {
  it('signed out: says an account is needed and links to sign-up and sign-in that come back here', async () => {
    const { get, readyJob } = site();
    const job = await readyJob();
    const confirm = `/a/${job.token}/approve?n=1`;
    const response = await get(confirm);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain(`<h1>${he.confirm.heading}</h1>`);
    expect(html).toContain(he.confirm.needsAccount);
    expect(html).toContain(`href="/signup?next=${encodeURIComponent(confirm)}"`);
    expect(html).toContain(`href="/signin?next=${encodeURIComponent(confirm)}"`);
    expect(html).not.toContain('/adopt"');
    expect(html).toContain(formatPrice(job.submission.price.total, 'ILS'));
  });

  it('signed in: one press posts the approval for the version asked about, and lands on the design', async () => {
    const { get, postForm, signUp, readyJob } = site();
    const job = await readyJob();
    const session = await signUp();
    const html = await (await get(`/a/${job.token}/approve?n=1`, session)).text();
    expect(html).toContain(adoptAction(job.token));
    expect(html).toContain('<input type="hidden" name="submissionNo" value="1">');
    expect(html).toContain(he.confirm.yes);
    expect(html).toContain(he.confirm.locks);
    const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, session);
    expect(adopted.status).toBe(303);
    expect(adopted.headers.get('location')).toMatch(/^\/designs\/[0-9a-f-]{36}$/);
  });

  it('a version replaced meanwhile is said so, and the form is for the newer one', async () => {
    const { get, png, signUp, readyJob } = site();
    const job = await readyJob();
    expect((await uploadPng(service, job, png())).status).toBe(200);
    const html = await (await get(`/a/${job.token}/approve?n=1`, await signUp())).text();
    expect(html).toContain(he.approval.errors.SUBMISSION_SUPERSEDED);
    expect(html).toContain('<input type="hidden" name="submissionNo" value="2">');
  });

  it('a decided link goes back to its page; a dead one is the site 404 page', async () => {
    const { get, postForm, readyJob } = site();
    const declined = await readyJob();
    expect((await postForm(`/api/agent/v1/handoff/${declined.token}/decline`, {})).status).toBe(303);
    const back = await get(`/a/${declined.token}/approve?n=1`);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/a/${declined.token}`);

    expect((await get('/a/zzzzzzzzzzzz/approve?n=1')).status).toBe(404);
    const expiring = await readyJob();
    service.clock.advance(8 * DAY);
    expect((await get(`/a/${expiring.token}/approve?n=1`)).status).toBe(404);
  });

  it('while the API is switched off it is the site 404 page', async () => {
    const { readyJob } = site();
    const job = await readyJob();
    const off = await startService({ apiEnabled: false, dir: service.dir });
    try {
      expect((await off.fetch(`/a/${job.token}/approve?n=1`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('sign-in and sign-up say why when they are on the way to an approval, and not otherwise', async () => {
    const { get, readyJob } = site();
    const job = await readyJob();
    const next = encodeURIComponent(`/a/${job.token}/approve?n=1`);
    for (const path of ['/signin', '/signup']) {
      expect(await (await get(`${path}?next=${next}`)).text()).toContain(he.accountFor.approval);
      expect(await (await get(`${path}?next=%2F`)).text()).not.toContain(he.accountFor.approval);
    }
  });

  it('approve without a session on the approval form goes to sign-in, then back to the confirmation', async () => {
    const { postForm, readyJob } = site();
    const job = await readyJob();
    const confirm = `/a/${job.token}/approve?n=1`;
    const anonymous = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' });
    expect(anonymous.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(confirm)}`);
    const signedUp = await postForm('/signup', { email: 'p@example.com', password: PASSWORD, next: confirm });
    expect(signedUp.headers.get('location')).toBe(confirm);
    expect(sessionFrom(signedUp)).toBeTruthy();
  });
});

describe('after approving', () => {
  it('the design page says what happens next, with the price, before the cutting file', async () => {
    const { get, postForm, signUp, readyJob } = site();
    const job = await readyJob();
    const session = await signUp();
    const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, session);
    const html = await (await get(adopted.headers.get('location')!, session)).text();
    const total = formatPrice(job.submission.price.total, 'ILS');
    expect(html).toContain(he.nextSteps.order(total));
    expect(html.indexOf(he.nextSteps.heading)).toBeLessThan(html.indexOf(he.design.fileHeading));
    expect(html).toContain(he.size.wrist('160', he.size.fit.comfort));
    const approved = await (await get(`/a/${job.token}`, session)).text();
    expect(approved).toContain(he.nextSteps.order(total));
  });

  it('the signed-in home page lists the person’s designs, newest first, and only theirs', async () => {
    const { get, postForm, signUp, readyJob } = site();
    const session = await signUp();
    const empty = await (await get('/', session)).text();
    expect(empty).toContain(he.designs.heading);
    expect(empty).toContain(he.designs.none);

    const ids: string[] = [];
    for (const body of [
      { productType: 'bracelet', size: { wristMm: 170, fit: 'snug' }, widthMm: 20 },
      { productType: 'ring', size: { usRingSize: 7 }, widthMm: 6 },
    ]) {
      const job = await readyJob(body);
      const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, session);
      ids.push(adopted.headers.get('location')!.split('/').pop()!);
      service.clock.advance(60_000);
    }
    const other = await signUp('other@example.com');
    const theirs = await readyJob();
    await postForm(`/api/agent/v1/handoff/${theirs.token}/adopt`, { submissionNo: '1' }, other);

    const html = await (await get('/', session)).text();
    const links = [...html.matchAll(/<a href="\/designs\/([0-9a-f-]{36})">/g)].map((m) => m[1]);
    expect(links).toEqual([ids[1], ids[0]]);
    expect(html).toContain(he.size.ring('7', '17.3'));
    expect(html).toContain(he.size.wrist('170', he.size.fit.snug));
    expect(html).not.toContain(he.designs.none);

    const signedOut = await (await get('/')).text();
    expect(signedOut).not.toContain(he.designs.heading);
  });
});
