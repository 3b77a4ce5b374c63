/**
 * Golden fixtures per pipeline stage: `test/fixtures/<stage>/<name>.<ext>` holds what the stage
 * returned on a fixture input when the file was last written. A test compares the stage's output
 * with it and fails on a difference; `UPDATE_GOLDEN=1 npx vitest run test/pipeline/stages` writes
 * the files anew instead (review the diff before committing it).
 *
 * Rasters are stored as 1-bit PNGs and compared pixel by pixel; JSON is compared with a numeric
 * tolerance (`closeTo`), so geometry may move within it; text (the SVGs) is compared exactly.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Mask } from '../../core/pipeline/raster/raster.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Whether this run rewrites the golden files instead of checking against them. */
export const UPDATING = process.env.UPDATE_GOLDEN === '1';

const pathOf = (stage: string, file: string): string => join(FIXTURES, stage, file);

function read(path: string): Buffer {
  if (!existsSync(path)) {
    throw new Error(`no golden file ${path}: write it with UPDATE_GOLDEN=1 npx vitest run test/pipeline/stages`);
  }
  return readFileSync(path);
}

function write(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

/**
 * Compares `actual` with the JSON golden file `<stage>/<name>.json`: the same shape and strings,
 * every number within `tolerance` of the stored one (absolute).
 */
export async function expectGoldenJson(stage: string, name: string, actual: unknown, tolerance = 1e-9): Promise<void> {
  const path = pathOf(stage, `${name}.json`);
  // Through JSON, so that what is compared is exactly what a file can hold (no undefined fields).
  const value: unknown = JSON.parse(JSON.stringify(actual));
  if (UPDATING) {
    write(path, await format(JSON.stringify(value), { parser: 'json', printWidth: 120 }));
    return;
  }
  expectClose(value, JSON.parse(read(path).toString('utf8')), tolerance, `${stage}/${name}`);
}

/** Compares a 0/1 raster with the PNG golden file `<stage>/<name>.png` (white air, black metal), pixel by pixel. */
export async function expectGoldenRaster(stage: string, name: string, raster: Mask): Promise<void> {
  const path = pathOf(stage, `${name}.png`);
  if (UPDATING) {
    write(path, await maskPng(raster));
    return;
  }
  const stored = await pngMask(read(path));
  expect({ w: raster.w, h: raster.h }, `${stage}/${name} size`).toEqual({ w: stored.w, h: stored.h });
  const differing = countDifferences(raster.data, stored.data);
  expect(differing, `${stage}/${name}: pixels differing from the golden raster`).toBe(0);
}

/** Compares text with the golden file `<stage>/<name>` (its extension included), exactly. */
export function expectGoldenText(stage: string, name: string, actual: string): void {
  const path = pathOf(stage, name);
  if (UPDATING) {
    write(path, actual);
    return;
  }
  expect(actual, `${stage}/${name}`).toBe(read(path).toString('utf8'));
}

/** A 0/1 mask as a 1-bit PNG: metal (1) black, air (0) white, as the agent draws. */
export function maskPng(mask: Mask): Promise<Buffer> {
  const grey = new Uint8Array(mask.w * mask.h);
  for (let i = 0; i < grey.length; i++) grey[i] = mask.data[i] ? 0 : 255;
  return sharp(grey, { raw: { width: mask.w, height: mask.h, channels: 1 } })
    .png({ palette: true, colours: 2, compressionLevel: 9 })
    .toBuffer();
}

/** A PNG read back as a 0/1 mask (dark is metal). */
export async function pngMask(png: Buffer): Promise<Mask> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = new Uint8Array(info.width * info.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]! < 128 ? 1 : 0;
  return { w: info.width, h: info.height, data: out };
}

function countDifferences(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Deep equality where numbers may differ by `tolerance`; the message names the first path that differs. */
export function expectClose(actual: unknown, expected: unknown, tolerance: number, path: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} against ${expected}`).toBeLessThanOrEqual(tolerance);
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    const list = actual as unknown[];
    expect(list.length, `${path} length`).toBe(expected.length);
    expected.forEach((item, i) => expectClose(list[i], item, tolerance, `${path}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${path} is an object`).toBe(true);
    const object = actual as Record<string, unknown>;
    expect(Object.keys(object).sort(), `${path} keys`).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expectClose(object[key], value, tolerance, `${path}.${key}`);
    return;
  }
  expect(actual, path).toEqual(expected);
}
