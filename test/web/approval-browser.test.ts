import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossSitePage, tooLargePage } from '../../web/pages/refused.ts';
import { serverErrorPage } from '../../web/pages/server-error.ts';
import { unavailablePage } from '../../web/pages/unavailable.ts';
import { he } from '../../web/strings.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import {
  ARTIFACTS,
  browserTitle,
  checkBothSizes,
  hasChromium,
  launchChromium,
  PHONE,
  startBrowserSite,
  type BrowserSite,
} from '../helpers/browser.ts';
import { openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { stripWithHoles } from '../helpers/strip-drawing.ts';

/**
 * What a person sees on the approval page and after it, in a real Chromium at a phone's and a
 * desktop's size: real drawings through the real pipeline, axe-core on every page, screenshots in
 * test/artifacts/ to look at.
 */
describe.skipIf(!hasChromium)(browserTitle('the approval journey in a real Chromium'), () => {
  let browser: Browser;
  let web: BrowserSite;

  beforeAll(async () => {
    browser = await launchChromium();
    web = await startBrowserSite({ config: { limits: roomyRateLimits }, realPipeline: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  /** A fresh phone-sized page; `expected` console errors (the 404 page's own status) are let through. */
  async function withPage(
    run: (page: Page, context: BrowserContext) => Promise<void>,
    expected: RegExp[] = [],
  ): Promise<void> {
    const context = await browser.newContext({ viewport: PHONE, locale: 'he-IL' });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      // A picture opened on its own is a document without the pages' `<link rel="icon">`, so
      // Chromium may ask for /favicon.ico, which the site does not serve: that one 404 is not ours.
      const favicon = new URL(message.location().url || 'http://x/').pathname === '/favicon.ico';
      if (message.type() === 'error' && !favicon && !expected.some((e) => e.test(text))) consoleErrors.push(text);
    });
    try {
      await run(page, context);
      expect(consoleErrors, 'console errors (a CSP violation or a failed load shows up here)').toEqual([]);
    } finally {
      await context.close();
    }
  }

  /** The hearts bracelet (155 x 20 mm, from a wrist size): ready through the real pipeline. */
  async function braceletLink(): Promise<string> {
    const fixture = designFixture('hearts');
    const job = await openJob(web.service, { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 });
    const response = await uploadPng(web.service, job, await fixture.png());
    const body: any = await response.json();
    expect(response.status, JSON.stringify(body.submission?.validation?.errors)).toBe(200);
    return body.submission.approval.url;
  }

  /** The page's two pictures as files in test/artifacts/, to look at at full size. */
  async function keepPictures(page: Page, name: string): Promise<void> {
    for (const kind of ['worn', 'flat']) {
      const src = await page.locator(`.piece-figure.${kind} img`).getAttribute('src');
      const response = await page.request.get(new URL(src!, web.site).href);
      expect(response.headers()['content-type']).toBe('image/png');
      writeFileSync(join(ARTIFACTS, `piece-${kind}-${name}.png`), await response.body());
    }
  }

  async function ringLink(): Promise<string> {
    const job = await openJob(web.service, { productType: 'ring', size: { usRingSize: 7 }, widthMm: 8 });
    const response = await uploadPng(web.service, job, await stripWithHoles(job.body.job.drawing, 9));
    const body: any = await response.json();
    expect(response.status, JSON.stringify(body.submission?.validation?.errors)).toBe(200);
    return body.submission.approval.url;
  }

  it('on a phone the decision stays on screen while the page scrolls, and the size is in wrist terms', async () => {
    const url = await braceletLink();
    await withPage(async (page) => {
      expect((await page.goto(url))?.status()).toBe(200);
      const bar = page.getByRole('navigation', { name: he.decisionBar.label });
      const approve = bar.getByRole('link', { name: he.approval.approve });
      for (const where of ['top', 'middle', 'bottom'] as const) {
        await page.evaluate((w) => {
          const end = document.documentElement.scrollHeight - window.innerHeight;
          window.scrollTo(0, w === 'top' ? 0 : w === 'middle' ? end / 2 : end);
        }, where);
        const box = await approve.boundingBox();
        expect(box, `approve in the bar at the ${where}`).not.toBeNull();
        expect(box!.y, `approve at the ${where}`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `approve at the ${where}`).toBeLessThanOrEqual(PHONE.height);
      }
      const main = await page.locator('main').innerText();
      expect(main).toContain(he.size.wrist('160', he.size.fit.comfort));
      expect(main).toContain(he.size.cuff('25'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(ARTIFACTS, 'approval-phone-first-screen.png') });
      await checkBothSizes(page, 'approval');
      await keepPictures(page, 'bracelet');

      // Tap to enlarge: the picture opens on its own, full size.
      await page.locator('.piece-figure.worn a').click();
      await page.waitForURL((u) => u.pathname.endsWith('/worn.png'));
      const size = await page.evaluate(() => {
        const img = document.querySelector('img');
        return img ? { width: img.naturalWidth, height: img.naturalHeight } : undefined;
      });
      expect(size!.width).toBeGreaterThan(2 * PHONE.width);
    });
  });

  it('a ring reads its US size and is closed', async () => {
    const url = await ringLink();
    await withPage(async (page) => {
      await page.goto(url);
      const main = await page.locator('main').innerText();
      expect(main).toContain(he.size.ring('7', '17.3'));
      expect(main).toContain(he.size.closedRing);
      await checkBothSizes(page, 'approval-ring');
      await keepPictures(page, 'ring');
    });
  });

  it('approve while signed out: one confirmation, sign-up on the way, back to finish with one press, then what happens next', async () => {
    const url = await braceletLink();
    await withPage(async (page) => {
      await page.goto(url);
      await page
        .getByRole('navigation', { name: he.decisionBar.label })
        .getByRole('link', { name: he.approval.approve })
        .click();
      await page.waitForURL((u) => u.pathname.endsWith('/approve'));
      expect(await page.locator('h1').innerText()).toBe(he.confirm.heading);
      await checkBothSizes(page, 'confirm-signed-out');

      await page.getByRole('link', { name: he.confirm.signUp }).click();
      await page.waitForURL((u) => u.pathname === '/signup');
      expect(await page.locator('main').innerText()).toContain(he.accountFor.approval);
      await checkBothSizes(page, 'signup-for-approval');
      await page.getByLabel(he.form.email).fill('person@example.com');
      await page.getByLabel(he.form.password).fill('correct horse battery');
      await page.getByRole('button', { name: he.signUp.submit }).click();

      await page.waitForURL((u) => u.pathname.endsWith('/approve'));
      expect(await page.locator('header').innerText()).toContain('person@example.com');
      await checkBothSizes(page, 'confirm-signed-in');
      await page.getByRole('button', { name: he.confirm.yes }).click();

      await page.waitForURL((u) => u.pathname.startsWith('/designs/'));
      expect(await page.locator('h1').innerText()).toBe(he.design.heading(he.products.bracelet));
      expect(await page.locator('main').innerText()).toContain(he.nextSteps.heading);
      await checkBothSizes(page, 'design');

      await page.goto(url);
      expect(await page.locator('h1').innerText()).toBe(he.approval.approvedHeading);
      await checkBothSizes(page, 'approved');

      await page.getByRole('link', { name: he.siteName }).click();
      await page.waitForURL((u) => u.pathname === '/');
      expect(await page.getByRole('heading', { name: he.designs.heading }).count()).toBe(1);
      expect(await page.locator('.designs li').count()).toBe(1);
      await checkBothSizes(page, 'home-signed-in');
    });
  });

  // One test per page, so a page that fails is named on its own. The API reference is some 60,000
  // px tall on a phone: axe still audits all of it, but a full-page picture of it took seconds to
  // encode (the test outran its timeout on CI's loaded cores) and is not a picture anyone reads.
  for (const [name, path, fullPage] of [
    ['home', '/', true],
    ['signin', '/signin', true],
    ['docs-api', '/docs/api', false],
  ] as const) {
    it(`the ${name} page (${path}) passes the same audit`, async () => {
      await withPage(async (page) => {
        expect((await page.goto(`${web.site}${path}`))?.status()).toBe(200);
        await checkBothSizes(page, name, { fullPage });
      });
    });
  }

  it('the 404 page passes the same audit', async () => {
    await withPage(
      async (page) => {
        expect((await page.goto(`${web.site}/no-such-page`))?.status()).toBe(404);
        await checkBothSizes(page, 'not-found');
      },
      [/status of 404/],
    );
  });

  // These answer a forged form, an oversized form, a session store that cannot answer and a
  // crash: the browser is handed the exact answer (status, headers, bytes) the route returns.
  const refusals: [string, () => Response][] = [
    ['cross-site', crossSitePage],
    ['too-large', tooLargePage],
    ['unavailable', unavailablePage],
    ['server-error', serverErrorPage],
  ];
  for (const [name, answer] of refusals) {
    it(`the ${name} page passes the same audit, as the server answers it`, async () => {
      await withPage(
        async (page) => {
          const response = answer();
          const body = Buffer.from(await response.arrayBuffer());
          await page.route(`${web.site}/${name}`, (route) =>
            route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body }),
          );
          expect((await page.goto(`${web.site}/${name}`))?.status()).toBe(response.status);
          expect(await page.getAttribute('html', 'dir')).toBe('rtl');
          await checkBothSizes(page, name);
        },
        [/status of (403|413|500|503)/],
      );
    });
  }
});
