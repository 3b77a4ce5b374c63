import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { he } from '../../web/strings.ts';
import {
  browserTitle,
  checkAndShoot,
  checkBothSizes,
  DESKTOP,
  hasChromium,
  launchChromium,
  PHONE,
  startBrowserSite,
  type BrowserSite,
} from '../helpers/browser.ts';
import { openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';

/** The request without its `Sec-Fetch-*` headers (Chromium adds them after any interception). */
function withoutFetchMetadata(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) if (name.startsWith('sec-fetch-')) headers.delete(name);
  return new Request(request, { headers });
}

const PASSWORD = 'correct horse battery';

/**
 * The pages' plumbing in a real Chromium: right to left, the keyboard, the forms' own Origin and
 * the session cookie, the cutting-file download, older browsers without Sec-Fetch-Site, and the
 * 404 page. (test/web/approval-browser.test.ts follows a person through the pages themselves.)
 */
describe.skipIf(!hasChromium)(browserTitle('the people’s pages in a real Chromium'), () => {
  let browser: Browser;
  let web: BrowserSite;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  /** The headers of every form post the server received, as the browser sent them. */
  let posts: { path: string; headers: Headers }[];
  /** Set to take `Sec-Fetch-*` off every request on its way in, as an older browser sends none. */
  let asOlderBrowser: boolean;
  let seed = 1;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    posts = [];
    asOlderBrowser = false;
    web = await startBrowserSite({ config: { limits: roomyRateLimits } }, (received) => {
      const request = asOlderBrowser ? withoutFetchMetadata(received) : received;
      if (request.method === 'POST') posts.push({ path: new URL(request.url).pathname, headers: request.headers });
      return request;
    });
    context = await browser.newContext({ viewport: DESKTOP, locale: 'he-IL', acceptDownloads: true });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => {
    await context?.close();
    await web.close();
  });

  /** A job whose upload the scripted pipeline made ready; its approval URL points at this server. */
  async function readyJob(): Promise<string> {
    const job = await openJob(web.service);
    const response = await uploadPng(web.service, job, makePng({ width: 300, height: 300, seed: seed++ }));
    expect(response.status).toBe(200);
    const { submission }: any = await response.json();
    const url: string = submission.approval.url;
    expect(url.startsWith(`${web.site}/a/`)).toBe(true);
    return url;
  }

  const heading = () => page.locator('h1').innerText();

  /** Presses Tab until the element matching `selector` has focus; fails after `limit` presses. */
  async function tabTo(selector: string, limit = 60): Promise<void> {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it('approve by keyboard alone: RTL page, the confirmation, sign-in, the design and its cutting file', async () => {
    await web.service.core.signUp({ email: 'person@example.com', password: PASSWORD, clientAddress: '127.0.0.1' });
    const url = await readyJob();
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('he');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
    expect(await heading()).toBe(he.approval.pendingHeading);
    const text = await page.locator('main').innerText();
    for (const expected of ['צמיד', 'מ״מ', '₪', he.price.total, he.approval.decisionHeading]) {
      expect(text).toContain(expected);
    }
    const preview = page.locator('.piece-figure.worn img');
    expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.locator('svg').count()).toBe(0);

    // The first Tab reaches the skip link, which shows a focus ring.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');

    await tabTo('#decision a.btn-primary');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.endsWith('/approve'));
    await tabTo(`a[href^="/signin"]:not(header a)`);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/signin');
    await page.getByLabel(he.form.email).fill('person@example.com');
    await page.getByLabel(he.form.password).fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.endsWith('/approve'));

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'jds');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });

    await tabTo('button.btn-primary');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.startsWith('/designs/') || u.pathname === '/signin');
    const designPath = new URL(page.url()).pathname;
    expect(
      designPath,
      'approve sent a signed-in person back to sign-in: the adopt route refused the page’s own form post ' +
        '(Chromium sends Origin: null with Sec-Fetch-Site: same-origin under Referrer-Policy: no-referrer)',
    ).toMatch(/^\/designs\//);
    const [adopt] = posts.filter((p) => p.path.endsWith('/adopt'));
    expect(adopt?.headers.get('sec-fetch-site')).toBe('same-origin');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: he.design.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`design-${designPath.split('/').pop()}.svg`);

    await page.goto(url);
    expect(await heading()).toBe(he.approval.approvedHeading);
    expect(await page.getByRole('link', { name: he.approval.toYourDesign }).getAttribute('href')).toBe(designPath);
    expect(await page.locator('main form').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('decline: the page comes back in the declined state, without buttons', async () => {
    const url = await readyJob();
    await page.goto(url);
    await page.locator('#decline button[type="submit"]').click();
    await page.waitForURL(url);
    expect(await heading()).toBe(he.approval.declinedHeading);
    expect(await page.locator('main').innerText()).toContain(he.approval.declinedBody);
    expect(await page.locator('main button').count()).toBe(0);
    await checkBothSizes(page, 'declined');
    expect(consoleErrors).toEqual([]);
  });

  it('sign-in: the form posts with the site’s own Origin, so a browser without Sec-Fetch-Site is let in too', async () => {
    await web.service.core.signUp({ email: 'person@example.com', password: PASSWORD, clientAddress: '127.0.0.1' });
    asOlderBrowser = true;
    await page.goto(`${web.site}/signin?next=/`);
    await page.getByLabel(he.form.email).fill('person@example.com');
    await page.getByLabel(he.form.password).fill(PASSWORD);
    await page.getByRole('button', { name: he.signIn.submit }).click();
    await page.waitForURL(`${web.site}/`);
    const [post] = posts.filter((p) => p.path === '/signin');
    expect(post?.headers.get('origin')).toBe(web.site);
    expect(post?.headers.get('sec-fetch-site')).toBeNull();
    expect(await page.locator('header').innerText()).toContain('person@example.com');
    expect(consoleErrors).toEqual([]);
  });

  it('an expired link shows the site 404 page', async () => {
    const url = await readyJob();
    web.service.clock.advance(8 * DAY);
    const response = await page.goto(url);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await heading()).toBe(he.notFound.title);
    await checkAndShoot(page, 'expired-link-phone', PHONE);
  });
});
