import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { getJob, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * The decline form with its reason in a real Chromium: found by its labels, the browser holds the
 * text to the configured maxlength, the post lands the reason with the agent and on the declined
 * page; the form has no axe-core violations and 48 px rows. Screenshots go to test/artifacts/.
 */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MAX_CHARS = 120;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const hasChromium = existsSync(CHROMIUM);
const title = hasChromium
  ? 'the decline form in a real Chromium'
  : `the decline form in a real Chromium (SKIPPED: ${CHROMIUM} is missing; apt-get install -y chromium)`;

/** axe-core's violations inside `selector` (WCAG 2.x A and AA rules), as `rule: target` lines. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async (context) => {
    const axe = (window as any).axe;
    const result = await axe.run(context, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] });
    return result.violations.flatMap((v: any) => v.nodes.map((n: any) => `${v.id}: ${n.target.join(' ')}`));
  }, selector);
}

describe.skipIf(!hasChromium)(title, () => {
  let browser: Browser;
  let server: ServerType;
  let service: TestService;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const late: { app?: Hono } = {};
    server = serve({ fetch: (request, env) => late.app!.fetch(request, env), port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await once(server, 'listening');
    const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    service = await startService({
      config: { limits: roomyRateLimits, site: { declineReasonMaxChars: MAX_CHARS } },
      siteUrl: site,
    });
    late.app = service.app;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
    await service.close();
    removeDir(service.dir);
  });

  it('takes a choice and words up to the limit, declines, and shows them back; the agent reads the same', async () => {
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
    expect(await axeViolations(page, 'form.decline-form')).toEqual([]);
    for (const row of await page.locator('.choice').all()) {
      expect((await row.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    }
    await page.locator('.decline-form').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'decline-form-phone.png'), fullPage: true });

    await group.getByRole('radio', { name: words.choices.size }).check();
    const text = page.getByLabel(words.textLabel);
    expect(await text.getAttribute('aria-describedby')).toBe('decline-text-hint');
    // The browser stops at maxlength; a line break counts as one there, as on the server.
    await text.fill(`שורה ראשונה <b>\n${'ב'.repeat(MAX_CHARS)}`);
    const typed = await text.inputValue();
    expect(typed.length).toBe(MAX_CHARS);
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: join(ARTIFACTS, 'decline-form-desktop.png'), fullPage: true });

    await page.getByRole('button', { name: he.approval.decline }).click();
    await page.waitForURL(url);
    expect(await page.locator('h1').innerText()).toBe(he.approval.declinedHeading);
    expect(await page.locator('.decline-text').innerText()).toBe(typed.trim());
    expect(await page.locator('.decline-reason').innerText()).toContain(words.choices.size);
    expect(await axeViolations(page, '.decline-reason')).toEqual([]);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'declined-reason-phone.png'), fullPage: true });

    expect((await getJob(service, job)).approval.declineReason).toEqual({ choice: 'size', text: typed.trim() });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
