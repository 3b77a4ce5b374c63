import sharp from 'sharp';
import { expect } from 'vitest';
import type { Drawing } from '../../core/contract/job.ts';
import type { Core } from '../../core/create-core.ts';
import { createSvgRenderer, type SvgRenderer } from '../../core/submissions/svg/render-pool.ts';
import type { JobRow } from '../../db/schema.ts';
import { DEFAULT_ADDRESS } from './service.ts';

/*
 * For the SVG drawing tests: jobs opened through core, renderers that count their calls, SVG text
 * built from the job's drawing hints, and the rendered PNG read back by sharp into grey levels
 * (the check shares nothing with the code that rendered it beyond the PNG itself).
 */

export const SVG_NS = 'http://www.w3.org/2000/svg';

export interface CoreJob {
  row: JobRow;
  drawing: Drawing;
}

/** Opens a job through core (no HTTP) and returns the row core's job functions take, with its hints. */
export async function openCoreJob(
  core: Core,
  body: unknown = { productType: 'bracelet', size: { lengthMm: 155 }, widthMm: 20 },
): Promise<CoreJob> {
  const opened = await core.openJob({ body: { value: body }, clientAddress: DEFAULT_ADDRESS });
  if (!opened.ok || opened.value.kind !== 'created') throw new Error(`job not opened: ${JSON.stringify(opened)}`);
  const row = await core.authenticate(opened.value.job.id, opened.value.jobSecret);
  if (!row.ok) throw new Error('job not authenticated');
  return { row: row.value, drawing: opened.value.job.drawing };
}

/** The real renderer, counting the documents it was asked to draw. */
export function countingRenderer(): SvgRenderer & { calls: number } {
  const real = createSvgRenderer({ concurrency: 2 });
  const counting = {
    calls: 0,
    render: (...args: Parameters<SvgRenderer['render']>) => {
      counting.calls++;
      return real.render(...args);
    },
    close: () => real.close(),
  };
  return counting;
}

/** A decoded PNG as grey levels, with the facts of the file itself. */
export interface Grey {
  width: number;
  height: number;
  channels: number;
  hasAlpha: boolean;
  at(x: number, y: number): number;
}

export async function readGrey(png: Uint8Array): Promise<Grey> {
  const meta = await sharp(png).metadata();
  expect(meta.format).toBe('png');
  // Read as grey whatever the file holds; `channels` is what the file itself says.
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: meta.channels,
    hasAlpha: meta.hasAlpha,
    at: (x, y) => data[(Math.floor(y) * info.width + Math.floor(x)) * info.channels]!,
  };
}

/** A whole SVG document around `body`, in canvas pixels unless `rootAttributes` says otherwise. */
export const svgDocument = (body: string, rootAttributes = 'viewBox="0 0 1536 1024"'): string =>
  `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" ${rootAttributes}>${body}</svg>`;

/** Round holes of radius `r` spread along the middle row of the strip, as a drawing would have them. */
export function holeCentres(strip: Drawing['stripPx'], count: number): Array<{ x: number; y: number }> {
  return Array.from({ length: count }, (_, i) => ({
    x: Math.round(strip.x + ((i + 0.5) * strip.width) / count),
    y: Math.round(strip.y + strip.height / 2),
  }));
}

/** The strip of the job's hints filled black, with white round holes: in canvas pixels. */
export function stripWithHoles(drawing: Drawing, count: number, r: number): string {
  const s = drawing.stripPx;
  const holes = holeCentres(s, count).map((c) => `<circle cx="${c.x}" cy="${c.y}" r="${r}" fill="#fff"/>`);
  return svgDocument(
    `<rect x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" fill="#000"/>${holes.join('')}`,
  );
}
