import { existsSync, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { he } from '../../web/strings.ts';
import { openJob, uploadPng } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/** The request without its `Sec-Fetch-*` headers (Chromium adds them after any interception). */
function withoutFetchMetadata(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) if (name.startsWith('sec-fetch-')) headers.delete(name);
  return new Request(request, { headers });
}

/** The Debian package `chromium`; playwright-core drives it and never downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const roomy = { limits: { globalSubmissionsPerMinute: 1000, submissionsPerHourPerIp: 1000, jobsPerHourPerIp: 1000 } };

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`Browser tests SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium`);
}
const title = hasChromium
  ? 'the people’s pages in a real Chromium'
  : `the people’s pages in a real Chromium (SKIPPED: ${CHROMIUM} is missing; apt-get install -y chromium)`;

describe.skipIf(!hasChromium)(title, () => {
  let browser: Browser;
  let server: ServerType;
  let site: string;
  let service: TestService;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  /** The headers of every form post the server received, as the browser sent them. */
  let posts: { path: string; headers: Headers }[];
  /** Set to take `Sec-Fetch-*` off every request on its way in, as an older browser sends none. */
  let asOlderBrowser: boolean;
  let seed = 1;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    // Listen first, then build the service with that origin as its site URL: the approval
    // links it hands out and the pages' own origin checks then match the real port.
    const late: { app?: Hono } = {};
    posts = [];
    asOlderBrowser = false;
    const fetch = (received: Request, env: unknown) => {
      const request = asOlderBrowser ? withoutFetchMetadata(received) : received;
      if (request.method === 'POST') posts.push({ path: new URL(request.url).pathname, headers: request.headers });
      return late.app!.fetch(request, env);
    };
    server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await once(server, 'listening');
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    service = await startService({ config: roomy, siteUrl: site });
    late.app = service.app;
    context = await browser.newContext({ viewport: DESKTOP, locale: 'he-IL', acceptDownloads: true });
    page = await context.newPage();
    consoleErrors = [];
    // A CSP violation or a failed load shows up as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => {
    await context?.close();
    await new Promise((resolve) => server.close(resolve));
    await service.close();
    removeDir(service.dir);
  });

  /** A job whose upload the scripted pipeline made ready; its approval URL points at this server. */
  async function readyJob(): Promise<{ url: string; token: string }> {
    const job = await openJob(service);
    const response = await uploadPng(service, job, makePng({ width: 300, height: 300, seed: seed++ }));
    expect(response.status).toBe(200);
    const { submission }: any = await response.json();
    const url: string = submission.approval.url;
    expect(url.startsWith(`${site}/a/`)).toBe(true);
    return { url, token: url.split('/a/')[1]! };
  }

  const heading = () => page.locator('h1').innerText();

  async function screenshot(name: string, viewport: { width: number; height: number }): Promise<void> {
    await page.setViewportSize(viewport);
    // Nothing may stick out sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name}: horizontal overflow`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  it('approve: Hebrew RTL page, sign up on the way, land on the design and download the cutting file', async () => {
    const { url } = await readyJob();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
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

    // Keyboard: the first Tab reaches the skip link, which shows a focus ring.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    await screenshot('approval-phone', PHONE);
    await screenshot('approval-desktop', DESKTOP);

    await page.getByRole('button', { name: he.approval.approve }).click();
    await page.waitForURL((u) => u.pathname === '/signin');
    expect(await heading()).toBe(he.signIn.title);
    await page.getByRole('link', { name: he.signIn.toSignUp }).click();
    await page.waitForURL((u) => u.pathname === '/signup');
    await page.getByLabel(he.form.email).fill('person@example.com');
    await page.getByLabel(he.form.password).fill('correct horse battery');
    await screenshot('signup-phone', PHONE);
    await page.getByRole('button', { name: he.signUp.submit }).click();
    await page.waitForURL(url);

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'jds');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
    expect(await page.locator('header').innerText()).toContain('person@example.com');

    await page.getByRole('button', { name: he.approval.approve }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/designs/') || u.pathname === '/signin');
    const designPath = new URL(page.url()).pathname;
    expect(
      designPath,
      'approve sent a signed-in person back to sign-in: the adopt route refused the page’s own form post ' +
        '(Chromium sends Origin: null with Sec-Fetch-Site: same-origin under Referrer-Policy: no-referrer)',
    ).toMatch(/^\/designs\//);
    expect(await heading()).toBe(he.design.heading('צמיד'));
    await screenshot('design-phone', PHONE);
    await screenshot('design-desktop', DESKTOP);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: he.design.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`design-${designPath.split('/').pop()}.svg`);

    await page.goto(url);
    expect(await heading()).toBe(he.approval.approvedHeading);
    expect(await page.getByRole('link', { name: he.approval.toYourDesign }).getAttribute('href')).toBe(designPath);
    expect(await page.getByRole('button', { name: he.approval.approve }).count()).toBe(0);
    await screenshot('approved-phone', PHONE);
    expect(consoleErrors).toEqual([]);
  });

  it('decline: the page comes back in the declined state, without buttons', async () => {
    const { url } = await readyJob();
    await page.goto(url);
    await page.getByRole('button', { name: he.approval.decline }).click();
    await page.waitForURL(url);
    expect(await heading()).toBe(he.approval.declinedHeading);
    expect(await page.locator('main').innerText()).toContain(he.approval.declinedBody);
    expect(await page.locator('main button').count()).toBe(0);
    await screenshot('declined-phone', PHONE);
    expect(consoleErrors).toEqual([]);
  });

  it('sign-in: the form posts with the site’s own Origin, so a browser without Sec-Fetch-Site is let in too', async () => {
    await service.core.signUp({
      email: 'person@example.com',
      password: 'correct horse battery',
      clientAddress: '127.0.0.1',
    });
    asOlderBrowser = true;
    await page.goto(`${site}/signin?next=/`);
    await page.getByLabel(he.form.email).fill('person@example.com');
    await page.getByLabel(he.form.password).fill('correct horse battery');
    await page.getByRole('button', { name: he.signIn.submit }).click();
    await page.waitForURL(`${site}/`);
    const [post] = posts.filter((p) => p.path === '/signin');
    expect(post?.headers.get('origin')).toBe(site);
    expect(post?.headers.get('sec-fetch-site')).toBeNull();
    expect(await page.locator('header').innerText()).toContain('person@example.com');
    expect(consoleErrors).toEqual([]);
  });

  it('an expired link shows the site 404 page', async () => {
    const { url } = await readyJob();
    service.clock.advance(8 * DAY);
    const response = await page.goto(url);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await heading()).toBe(he.notFound.title);
    await screenshot('not-found-phone', PHONE);
  });
});
