import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { removeDir, startService, type TestService, type TestServiceOptions } from './service.ts';

/** The Debian package `chromium`; playwright-core drives it and never downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** A describe title that says plainly when and why the browser tests are skipped. */
export function browserTitle(title: string): string {
  if (hasChromium) return title;
  console.warn(`Browser tests SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium`);
  return `${title} (SKIPPED: ${CHROMIUM} is missing; apt-get install -y chromium)`;
}

export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface BrowserSite {
  /** The site's origin, a real port on 127.0.0.1. */
  site: string;
  service: TestService;
  close(): Promise<void>;
}

/**
 * A test service listening on a real port. It listens first and is built with that origin as its
 * site URL, so the approval links it hands out and the pages' own origin checks match the port.
 * `intercept` sees each request on its way in (and may replace it).
 */
export async function startBrowserSite(
  options: TestServiceOptions = {},
  intercept: (request: Request) => Request = (request) => request,
): Promise<BrowserSite> {
  const late: { app?: Hono } = {};
  const server: ServerType = serve({
    fetch: (request, env) => late.app!.fetch(intercept(request), env),
    port: 0,
    hostname: '127.0.0.1',
  });
  if (!server.listening) await once(server, 'listening');
  const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service = await startService({ ...options, siteUrl: site });
  late.app = service.app;
  return {
    site,
    service,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await service.close();
      removeDir(service.dir);
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * axe-core's audit of the page as it stands, run inside the page (injected through the DevTools
 * protocol, which the pages' strict CSP does not govern). Every rule axe runs by default; none may fail.
 */
async function expectAccessible(page: Page, name: string): Promise<void> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  const readable = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(readable, `${name}: axe-core violations`).toEqual([]);
}

/** Nothing may stick out sideways: the document is no wider than the viewport. */
async function expectNoSidewaysScroll(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name}: horizontal overflow in px`).toBeLessThanOrEqual(0);
}

/** How much of the page the screenshot takes: all of it, or the first screen of a very long page. */
export interface ShotOptions {
  fullPage?: boolean;
}

/**
 * The page at a viewport size: no sideways scroll, axe finds nothing (on the whole page either
 * way), and a screenshot in test/artifacts/{name}.png to look at.
 */
export async function checkAndShoot(
  page: Page,
  name: string,
  viewport: { width: number; height: number },
  { fullPage = true }: ShotOptions = {},
): Promise<void> {
  await page.setViewportSize(viewport);
  await expectNoSidewaysScroll(page, name);
  await expectAccessible(page, name);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

/** The same at a phone's and a desktop's size: `{name}-phone.png` and `{name}-desktop.png`. */
export async function checkBothSizes(page: Page, name: string, options: ShotOptions = {}): Promise<void> {
  await checkAndShoot(page, `${name}-phone`, PHONE, options);
  await checkAndShoot(page, `${name}-desktop`, DESKTOP, options);
}
