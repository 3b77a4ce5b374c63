import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { coreError } from '../../core/errors.ts';
import type { ApprovalView, DesignView } from '../../core/handoff/types.ts';
import type { Core } from '../../core/index.ts';
import { err } from '../../core/result.ts';
import { formatPrice } from '../../web/format.ts';
import { registerWebRoutes } from '../../web/index.ts';
import { renderApprovalPage } from '../../web/pages/approval.ts';
import { renderDesignPage } from '../../web/pages/design.ts';
import { safeNext } from '../../web/request.ts';
import { he } from '../../web/strings.ts';
import { bearer, braceletBody, jsonInit, uploadPng } from '../helpers/flows.ts';
import { PASSWORD, sessionFrom, siteClient } from '../helpers/site.ts';
import { removeDir, SITE, startService, type TestService } from '../helpers/service.ts';

const roomy = { limits: { globalSubmissionsPerMinute: 1000, submissionsPerHourPerIp: 1000, jobsPerHourPerIp: 1000 } };
const HOSTILE = '<script>alert(1)</script>';
const FORM = 'application/x-www-form-urlencoded';

/** Markup that must never reach a page unescaped. */
function expectNoInjectedMarkup(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<svg/i);
  expect(html).not.toContain('alert(1)</');
}

function expectHebrewPage(html: string): void {
  expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
}

/** The account forms' pages send `same-origin` (so their posts carry an Origin); every other page `no-referrer`. */
function expectPageHeaders(response: Response, referrerPolicy = 'no-referrer'): void {
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('script-src');
  expect(csp).toContain("form-action 'self'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe(referrerPolicy);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

/** The page's pictures of the piece: each `<img>` inside its full-size link, in page order. */
function picturesOf(html: string): { href: string; src: string; width: number; height: number; alt: string }[] {
  return [
    ...html.matchAll(
      /<a class="piece-frame" href="([^"]*)"><img src="([^"]*)" width="(\d+)" height="(\d+)" alt="([^"]*)"/g,
    ),
  ].map(([, href, src, width, height, alt]) => ({
    href: href!,
    src: src!,
    width: Number(width),
    height: Number(height),
    alt: alt!,
  }));
}

/** Width and height from a PNG's IHDR. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

const geometry = {
  lengthMm: 172.3,
  widthMm: 20,
  drawnRatio: 8.6,
  stretch: 1,
  cuts: 3,
  openAreaPct: 20,
  estWeightGrams: 31.6,
};
const price = { currency: 'ILS', base: 320, shipping: 30, total: 350, vatIncluded: true, note: 'n' };

function approvalView(overrides: Partial<ApprovalView> = {}): ApprovalView {
  return {
    token: 'abcDEF234xyz',
    status: 'pending',
    productType: 'bracelet',
    submissionNo: 3,
    geometry,
    price,
    expiresAt: Date.UTC(2026, 10, 29, 12, 0, 0),
    wear: { sizeInput: { wristMm: 160 }, gapMm: 25, thicknessMm: 1.5 },
    worn: { product: 'bracelet', wristMm: 160, fit: 'comfort', gapMm: 25, fromLength: false },
    pictures: { flat: { width: 2000, height: 420 }, worn: { width: 1600, height: 1403 } },
    notes: [],
    changesPicture: false,
    ...overrides,
  };
}

describe('page rendering (hand-made views)', () => {
  const viewer = { accountId: 'acc-1', email: `${HOSTILE}@example.com` };

  it('a pending approval shows the piece, the price and both forms, in Hebrew, right to left', () => {
    const html = renderApprovalPage({
      view: approvalView(),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expectHebrewPage(html);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(he.approval.pendingHeading);
    expect(html).toContain('צמיד');
    expect(html).toContain('172.3 × 20 מ״מ');
    expect(html).toContain('1.5 מ״מ');
    expect(html).toContain(formatPrice(320, 'ILS'));
    expect(html).toContain(formatPrice(30, 'ILS'));
    expect(html).toContain(formatPrice(350, 'ILS'));
    expect(formatPrice(350, 'ILS')).toMatch(/350.*₪/);
    expect(html).toContain('מספר 3');
    // Approve goes to the one confirmation, for the version on the page; it is never a post from here.
    expect(html).toContain('href="/a/abcDEF234xyz/approve?n=3"');
    expect(html).not.toContain('/adopt"');
    expect(html).toContain('<form class="decline-form" method="post" action="/a/abcDEF234xyz/decline">');
    expect(html).toContain(he.approval.approveNeedsAccount);
    expect(html).toContain('href="/signin?next=%2Fa%2FabcDEF234xyz"');
  });

  it('shows the piece as worn and flat: images the link serves, sized, with Hebrew alt texts that give the dimensions', () => {
    const view = approvalView();
    const html = renderApprovalPage({ view, viewer: undefined, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expectNoInjectedMarkup(html);
    expect(html).not.toContain('data:image');
    expect(picturesOf(html)).toEqual([
      {
        href: '/a/abcDEF234xyz/worn.png',
        src: '/a/abcDEF234xyz/worn.png',
        width: 1600,
        height: 1403,
        alt: he.pictures.worn.bracelet.alt('172.3 מ״מ', '20 מ״מ', '25 מ״מ'),
      },
      {
        href: '/a/abcDEF234xyz/flat.png',
        src: '/a/abcDEF234xyz/flat.png',
        width: 2000,
        height: 420,
        alt: he.pictures.flat.alt('172.3 × 20 מ״מ'),
      },
    ]);
    expect(html).toContain(he.pictures.worn.bracelet.caption('25 מ״מ'));
    expect(html).toContain(he.pictures.enlarge);
    // The pictures come first, then what the page says about the piece.
    expect(html.indexOf('pictures-heading')).toBeLessThan(html.indexOf('facts-heading'));
  });

  it('a ring is shown closed, and a hostile token stays inside its picture addresses', () => {
    const html = renderApprovalPage({
      view: approvalView({
        productType: 'ring',
        token: HOSTILE,
        wear: { sizeInput: { usRingSize: 7 }, gapMm: 0, thicknessMm: 1.5 },
        worn: { product: 'ring', usRingSize: 7, innerDiameterMm: 17.3, fromLength: false },
      }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expectNoInjectedMarkup(html);
    const [worn, flat] = picturesOf(html);
    expect(worn!.src).toBe(`/a/${encodeURIComponent(HOSTILE)}/worn.png`);
    expect(flat!.src).toBe(`/a/${encodeURIComponent(HOSTILE)}/flat.png`);
    expect(worn!.alt).toBe(he.pictures.worn.ring.alt('172.3 מ״מ', '20 מ״מ'));
    expect(html).toContain(he.pictures.worn.ring.caption);
  });

  it('a ring reads טבעת and a non-integer price keeps its agorot', () => {
    const html = renderApprovalPage({
      view: approvalView({ productType: 'ring', price: { ...price, base: 219.5, total: 249.5 } }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain('טבעת');
    expect(html).toContain(formatPrice(219.5, 'ILS'));
    expect(formatPrice(219.5, 'ILS')).toContain('219.50');
  });

  it('an approval approved by the viewer links to their design and offers no buttons', () => {
    const view = approvalView({ status: 'approved', approvedBy: { accountId: 'acc-1', designId: 'd-1' } });
    const html = renderApprovalPage({ view, viewer, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expect(html).toContain(he.approval.approvedHeading);
    expect(html).toContain(he.approval.approvedByYou);
    expect(html).toContain('href="/designs/d-1"');
    expect(html).not.toContain('<form method="post" action="/api');
    expectNoInjectedMarkup(html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
  });

  it('an approval approved by someone else says so without a link', () => {
    const view = approvalView({ status: 'approved', approvedBy: { accountId: 'acc-2', designId: 'd-2' } });
    const html = renderApprovalPage({ view, viewer, thicknessMm: 1.5, declineReasonMaxChars: 500 });
    expect(html).toContain(he.approval.approvedBySomeone);
    expect(html).not.toContain('/designs/');
    expect(html).not.toContain('<form method="post" action="/api');
  });

  it('a declined approval says the agent may send a new version, without buttons', () => {
    const html = renderApprovalPage({
      view: approvalView({ status: 'declined' }),
      viewer,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain(he.approval.declinedHeading);
    expect(html).toContain(he.approval.declinedBody);
    expect(html).not.toContain('<form method="post" action="/api');
  });

  it.each([
    ['SUBMISSION_SUPERSEDED', he.approval.errors.SUBMISSION_SUPERSEDED],
    ['ALREADY_APPROVED', he.approval.errors.ALREADY_APPROVED],
    ['RATE_LIMITED', he.approval.errors.RATE_LIMITED],
    ['AUTH_UNAVAILABLE', he.approval.errors.AUTH_UNAVAILABLE],
    ['INVALID_REQUEST', he.approval.errors.other],
    [HOSTILE, he.approval.errors.other],
    ['other', he.approval.errors.other],
  ])('?e=%s shows its Hebrew explanation', (code, text) => {
    const html = renderApprovalPage({
      view: approvalView(),
      viewer: undefined,
      errorCode: code,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).toContain(`<div class="notice error" role="alert"><p>${text}</p></div>`);
    expectNoInjectedMarkup(html);
  });

  it('a design page shows the piece and the download link', () => {
    const design: DesignView = {
      id: 'd-1',
      accountId: 'acc-1',
      jobId: 'j-1',
      submissionNo: 2,
      productType: 'ring',
      geometry,
      price,
      cutoutsSvg: '<svg/>',
      wear: { sizeInput: { usRingSize: 7 }, gapMm: 0, thicknessMm: 1.5 },
      worn: { product: 'ring', usRingSize: 7, innerDiameterMm: 17.3, fromLength: false },
      pictures: { flat: { width: 2000, height: 420 }, worn: { width: 1600, height: 1473 } },
      createdAt: Date.UTC(2026, 10, 22, 12, 0, 0),
    };
    const html = renderDesignPage({ design, viewer, thicknessMm: 1.5 });
    expectHebrewPage(html);
    expect(html).toContain(he.design.heading('טבעת'));
    expect(html).toContain('href="/designs/d-1/cutouts.svg" download');
    expect(picturesOf(html).map(({ src, width, height }) => [src, width, height])).toEqual([
      ['/designs/d-1/worn.png', 1600, 1473],
      ['/designs/d-1/flat.png', 2000, 420],
    ]);
    expect(html).toContain('22 בנובמבר 2026');
    expectNoInjectedMarkup(html);
  });

  it.each([
    ['/a/abc', '/a/abc'],
    ['/designs/x?y=1', '/designs/x?y=1'],
    ['//evil.example/a', undefined],
    ['/\\evil.example', undefined],
    ['https://evil.example/', undefined],
    ['javascript:alert(1)', undefined],
    ['a/b', undefined],
    ['/a b', undefined],
    ['/a\tb', undefined],
    ['/\u3002x', undefined],
    ['/a%E3%80%82x', '/a%E3%80%82x'],
    ['', undefined],
    [undefined, undefined],
  ])('next=%j is accepted as %j', (value, expected) => {
    expect(safeNext(value)).toBe(expected);
  });
});

describe('pages through the app', () => {
  let service: TestService;

  beforeEach(async () => {
    service = await startService({ config: roomy });
  });
  afterEach(async () => {
    await service.close();
    removeDir(service.dir);
  });

  let png: () => Uint8Array;
  let get: ReturnType<typeof siteClient>['get'];
  let postForm: ReturnType<typeof siteClient>['postForm'];
  let signUp: ReturnType<typeof siteClient>['signUp'];
  let readyJob: ReturnType<typeof siteClient>['readyJob'];
  beforeEach(() => {
    ({ png, get, postForm, signUp, readyJob } = siteClient(service));
  });

  const notFoundHtml = async () => (await get('/no-such-page')).text();

  it('the home page is Hebrew, right to left, with sign-in links and the strict CSP', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expectPageHeaders(response);
    const html = await response.text();
    expectHebrewPage(html);
    expect(html).toContain(he.home.title);
    expect(html).toContain('href="/signin"');
    expect(html).toContain('href="/signup"');
  });

  it('an unknown page is the Hebrew 404 page', async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    expectPageHeaders(response);
    const html = await response.text();
    expectHebrewPage(html);
    expect(html).toContain(he.notFound.title);
  });

  it('GET /a/{token} shows the pending design with both forms and no markup from storage', async () => {
    const job = await readyJob();
    const response = await get(`/a/${job.token}`);
    expect(response.status).toBe(200);
    expectPageHeaders(response);
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
    // The pages send Referrer-Policy: no-referrer, so a browser's form post carries `Origin: null`;
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

  it('the session cookie is HttpOnly, SameSite=Lax, site-wide, 30 days, not Secure on http', async () => {
    const response = await postForm('/signup', { email: 'person@example.com', password: PASSWORD });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^jds=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain('; Path=/');
    expect(cookie).toContain(`; Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('sign-in sets a new session and sign-out ends it and clears the cookie', async () => {
    const first = await signUp();
    const signedIn = await postForm('/signin', { email: 'person@example.com', password: PASSWORD }, first);
    expect(signedIn.status).toBe(303);
    const second = sessionFrom(signedIn);
    expect(second).not.toBe(first);
    expect(await service.core.sessionAccount(first)).toEqual({ ok: true, value: undefined });

    const signedInPage = await get('/signin', second);
    expect(await signedInPage.text()).toContain(he.signIn.alreadySignedIn);

    const out = await postForm('/signout', {}, second);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    const cleared = out.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^jds=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await service.core.sessionAccount(second)).toEqual({ ok: true, value: undefined });
    const home = await (await get('/', second)).text();
    expect(home).toContain('href="/signin"');
  });

  it('a wrong password re-renders the form with one generic Hebrew message and status 400', async () => {
    await signUp();
    for (const fields of [
      { email: 'person@example.com', password: 'wrong password!' },
      { email: 'nobody@example.com', password: PASSWORD },
      { email: '', password: '' },
    ]) {
      const response = await postForm('/signin', { ...fields, next: '/a/abc' });
      expect(response.status).toBe(400);
      expect(response.headers.get('set-cookie')).toBeNull();
      expectPageHeaders(response, 'same-origin');
      const html = await response.text();
      expect(html).toContain(he.signIn.failed);
      expect(html).toContain('<input type="hidden" name="next" value="/a/abc">');
      expect(html).not.toContain(fields.password || 'never');
    }
  });

  it('a refused sign-up says so in Hebrew and echoes the address escaped', async () => {
    const short = await postForm('/signup', { email: `${HOSTILE}@example.com`, password: 'short' });
    expect(short.status).toBe(400);
    const html = await short.text();
    expect(html).toContain(he.signUp.failed('8'));
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;@example.com"');
    expectNoInjectedMarkup(html);

    await signUp('taken@example.com');
    const taken = await postForm('/signup', { email: 'taken@example.com', password: PASSWORD });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain(he.signUp.failed('8'));
  });

  it('an email full of markup is escaped in the header of every page', async () => {
    const session = await signUp(`${HOSTILE}@example.com`);
    const job = await readyJob();
    for (const path of ['/', `/a/${job.token}`, '/signin', '/signup']) {
      const html = await (await get(path, session)).text();
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
      expectNoInjectedMarkup(html);
    }
  });

  it('throttled sign-ins answer 429 with a Hebrew message and Retry-After', async () => {
    const tight = await startService({ config: { ...roomy, site: { signInPerHourPerAddress: 2 } } });
    try {
      const attempt = () =>
        tight.fetch('/signin', {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: new URLSearchParams({ email: 'a@example.com', password: 'whatever1' }).toString(),
        });
      expect((await attempt()).status).toBe(400);
      expect((await attempt()).status).toBe(400);
      const throttled = await attempt();
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await throttled.text()).toContain(he.signIn.throttled);
    } finally {
      await tight.close();
      removeDir(tight.dir);
    }
  });

  it.each(['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'next=%s is refused as a redirect target',
    async (next) => {
      const page = await (await get(`/signin?next=${encodeURIComponent(next)}`)).text();
      expect(page).not.toContain('name="next"');
      expect(page).not.toContain('evil.example');
      await signUp();
      const response = await postForm('/signin', { email: 'person@example.com', password: PASSWORD, next });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
    },
  );

  it('forms posted from another site are refused', async () => {
    await signUp();
    const fields = { email: 'person@example.com', password: PASSWORD };
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const response = await postForm('/signin', fields, undefined, headers);
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.text()).toContain(he.crossSite.title);
    }
    const sameOrigin = await postForm('/signin', fields, undefined, {
      'sec-fetch-site': 'same-origin',
      origin: 'null',
    });
    expect(sameOrigin.status).toBe(303);
  });

  it('pages show a Hebrew 503 when the session store cannot answer', async () => {
    const broken: Core = {
      ...service.core,
      sessionAccount: async () => err(coreError('AUTH_UNAVAILABLE')),
    };
    const app = new Hono();
    registerWebRoutes(app, broken, { apiEnabled: true, clientAddress: () => '203.0.113.10' });
    const job = await readyJob();
    for (const path of ['/', `/a/${job.token}`, '/signin', '/signup', '/designs/x']) {
      const response = await app.request(`${SITE}${path}`, { headers: { cookie: 'jds=whatever' } });
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after')).toBe('30');
      expectPageHeaders(response);
      const html = await response.text();
      expectHebrewPage(html);
      expect(html).toContain(he.unavailable.title);
    }
  });

  it('the session cookie is Secure when the site is https', async () => {
    const secure = await startService({ config: roomy, siteUrl: 'https://jewellery.example' });
    try {
      const response = await secure.fetch('/signup', {
        method: 'POST',
        headers: { 'content-type': FORM, origin: 'https://jewellery.example' },
        body: new URLSearchParams({ email: 'person@example.com', password: PASSWORD }).toString(),
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('set-cookie')).toMatch(/; Secure$/);
      const out = await secure.fetch('/signout', { method: 'POST', headers: { cookie: 'jds=x' } });
      expect(out.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await secure.close();
      removeDir(secure.dir);
    }
  });

  it('while the API is switched off, approval links show the site 404 page', async () => {
    const off = await startService({ config: roomy, apiEnabled: false, dir: service.dir });
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

  it('an oversized form is refused with 413', async () => {
    const response = await postForm('/signin', { email: 'a@example.com', password: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
  });

  it('jsonInit is not a form: posting JSON to /signin re-renders the form', async () => {
    const response = await service.fetch('/signin', jsonInit({ email: 'a@example.com', password: PASSWORD }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(he.signIn.failed);
  });
});
