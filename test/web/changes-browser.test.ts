import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { severalChangesPng, SEVERAL_CHANGES_JOB } from '../fixtures/pipeline/several-changes.ts';
import {
  ARTIFACTS,
  browserTitle,
  checkAndShoot,
  DESKTOP,
  hasChromium,
  launchChromium,
  PHONE,
  startBrowserSite,
  type BrowserSite,
} from '../helpers/browser.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';

/**
 * The approval page of a design the engine repaired, in a real Chromium: the changes picture
 * loads below the preview, one Hebrew line per change, right to left, on a phone and a desktop.
 * The screenshots and both example pictures (docs/examples/) are written to test/artifacts/.
 */
describe.skipIf(!hasChromium)(browserTitle('what the engine changed, on the approval page in a real Chromium'), () => {
  let browser: Browser;
  let web: BrowserSite;
  let service: BrowserSite['service'];

  beforeAll(async () => {
    browser = await launchChromium();
    web = await startBrowserSite({ config: { limits: roomyRateLimits }, realPipeline: true });
    service = web.service;
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  const { productType, lengthMm, widthMm } = SEVERAL_CHANGES_JOB;

  it('shows the changes picture below the preview and one Hebrew line per change, on a phone and a desktop', async () => {
    const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
    const response = await uploadPng(service, job, await severalChangesPng('ready'));
    expect(response.status).toBe(200);
    const { submission }: any = await response.json();
    const warnings: { code: string }[] = submission.validation.warnings;
    expect(warnings.length).toBeGreaterThanOrEqual(3);

    const context = await browser.newContext({ viewport: PHONE, locale: 'he-IL' });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    expect((await page.goto(submission.approval.url))?.status()).toBe(200);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');

    const section = page.locator('section', { has: page.locator('#changes-heading') });
    expect(await section.locator('h2').innerText()).toBe(he.changes.heading);
    expect(await section.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    const picture = section.locator('img');
    await picture.evaluate((img: HTMLImageElement) => img.decode());
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1536);
    const lines = section.locator('ol.changes > li');
    expect(await lines.count()).toBe(warnings.length);
    for (let i = 0; i < warnings.length; i++) {
      const code = warnings[i]!.code as keyof typeof he.changes.lines;
      expect(await lines.nth(i).getAttribute('value')).toBe(String(i + 1));
      expect(await lines.nth(i).innerText()).toContain(he.changes.lines[code]);
    }
    const previewBox = await page.locator('.piece-figure.flat').boundingBox();
    const pictureBox = await picture.boundingBox();
    expect(pictureBox!.y).toBeGreaterThan(previewBox!.y + previewBox!.height);

    for (const [name, viewport] of [
      ['changes-phone', PHONE],
      ['changes-desktop', DESKTOP],
    ] as const) {
      await checkAndShoot(page, name, viewport);
      const fits = await picture.boundingBox();
      expect(fits!.width).toBeLessThanOrEqual(viewport.width);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();

    // The example pictures: this one, and the same drawing refused for a pinched slot.
    const token = submission.approval.url.split('/a/')[1];
    const changes = await service.fetch(`/a/${token}/changes.png`);
    writeFileSync(join(ARTIFACTS, 'changes-ready.png'), Buffer.from(await changes.arrayBuffer()));
    const refusedJob = await openJob(service, { productType, size: { lengthMm }, widthMm });
    const refused = await uploadPng(service, refusedJob, await severalChangesPng('refused'));
    expect(refused.status).toBe(422);
    const findings = await service.api(`/jobs/${refusedJob.id}/submissions/1/findings.png`, {
      headers: bearer(refusedJob.secret),
    });
    expect(findings.status).toBe(200);
    writeFileSync(join(ARTIFACTS, 'findings-refused.png'), Buffer.from(await findings.arrayBuffer()));
  });
});
