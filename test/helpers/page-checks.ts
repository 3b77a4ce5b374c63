import { expect } from 'vitest';

/** What every page of the site is held to, whether a view rendered by hand or a route's answer. */

export const HOSTILE = '<script>alert(1)</script>';

/** Markup that must never reach a page unescaped. */
export function expectNoInjectedMarkup(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<svg/i);
  expect(html).not.toContain('alert(1)</');
}

export function expectHebrewPage(html: string): void {
  expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
}

/**
 * The account forms', approval and confirmation pages send `same-origin` (so their posts carry an
 * Origin); every other page `no-referrer`.
 */
export function expectPageHeaders(response: Response, referrerPolicy = 'no-referrer'): void {
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
export function picturesOf(html: string): { href: string; src: string; width: number; height: number; alt: string }[] {
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
export const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
