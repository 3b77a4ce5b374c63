import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import {
  browserTitle,
  checkAndShoot,
  checkBothSizes,
  hasChromium,
  launchChromium,
  PHONE,
  startBrowserSite,
  type BrowserSite,
} from '../helpers/browser.ts';
import { getJob, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';

/**
 * The decline form with its reason in a real Chromium: found by its labels, the browser holds the
 * text to the configured maxlength, the post lands the reason with the agent and on the declined
 * page; axe-core finds nothing on either page and the choices are 48 px rows. Screenshots go to
 * test/artifacts/.
 */
const MAX_CHARS = 120;

describe.skipIf(!hasChromium)(browserTitle('the decline form in a real Chromium'), () => {
  let browser: Browser;
  let site: BrowserSite;

  beforeAll(async () => {
    browser = await launchChromium();
    site = await startBrowserSite({ config: { limits: roomyRateLimits, site: { declineReasonMaxChars: MAX_CHARS } } });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('takes a choice and words up to the limit, declines, and shows them back; the agent reads the same', async () => {
    const { service } = site;
    const job = await openJob(service);
    const upload: any = await (await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 3 }))).json();
    const url: string = upload.submission.approval.url;

    const context = await browser.newContext({ viewport: PHONE, locale: 'he-IL' });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(url);
    const words = he.approval.declineReason;

    const group = page.getByRole('group', { name: words.legend });
    expect(await group.getByRole('radio').count()).toBe(6);
    expect(await group.getByRole('radio', { name: words.none }).isChecked()).toBe(true);
    for (const row of await page.locator('.choice').all()) {
      expect((await row.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    }
    await group.getByRole('radio', { name: words.choices.size }).check();
    const text = page.getByLabel(words.textLabel);
    expect(await text.getAttribute('aria-describedby')).toBe('decline-text-hint');
    // The browser stops at maxlength; a line break counts as one there, as on the server.
    await text.fill(`שורה ראשונה <b>\n${'ב'.repeat(MAX_CHARS)}`);
    const typed = await text.inputValue();
    expect(typed.length).toBe(MAX_CHARS);
    await checkBothSizes(page, 'decline-form');

    await page.getByRole('button', { name: he.approval.decline }).click();
    await page.waitForURL(url);
    expect(await page.locator('h1').innerText()).toBe(he.approval.declinedHeading);
    expect(await page.locator('.decline-text').innerText()).toBe(typed.trim());
    expect(await page.locator('.decline-reason').innerText()).toContain(words.choices.size);
    await checkAndShoot(page, 'declined-reason-phone', PHONE);

    expect((await getJob(service, job)).approval.declineReason).toEqual({ choice: 'size', text: typed.trim() });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('a page left open while a newer version passed declines nothing: the person sees the newer one and why', async () => {
    const { service } = site;
    const job = await openJob(service);
    const upload: any = await (await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 4 }))).json();
    const url: string = upload.submission.approval.url;

    const context = await browser.newContext({ viewport: PHONE, locale: 'he-IL' });
    const page = await context.newPage();
    await page.goto(url);
    // The agent's newer version passes while the page is open.
    expect((await uploadPng(service, job, makePng({ width: 300, height: 300, seed: 5 }))).status).toBe(200);
    await page.getByRole('button', { name: he.approval.decline }).click();
    await page.waitForURL(`${url}?e=DECLINE_SUPERSEDED`);
    expect(await page.getByRole('alert').innerText()).toContain(he.approval.errors.DECLINE_SUPERSEDED);
    expect(await page.locator('input[name="submissionNo"]').getAttribute('value')).toBe('2');
    await checkAndShoot(page, 'decline-superseded-phone', PHONE);
    expect((await getJob(service, job)).approval.status).toBe('pending');

    // Declining again from the page now showing version 2 declines it.
    await page.getByRole('button', { name: he.approval.decline }).click();
    await page.waitForURL(url);
    expect(await page.locator('h1').innerText()).toBe(he.approval.declinedHeading);
    expect((await getJob(service, job)).approval.status).toBe('declined');
    await context.close();
  });
});
