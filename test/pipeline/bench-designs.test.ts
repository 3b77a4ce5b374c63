import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.ts';
import { MAX_LOCATIONS } from '../../core/pipeline/findings/locate.ts';
import { checkCutSvg, faithfulness, readDrawing } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * The shared benchmark designs a job reaches at the contract's configuration, through the real
 * service: ready, and their cutting files pass the independent checker and are faithful to the
 * drawing. The strip is the drawing the baseline shipped with metal of 0.34 mm and webs of
 * 0.52-0.55 mm between neighbouring openings; those places are now widened and named.
 */
const benchDir = join(import.meta.dirname, '../../../shared/bench');
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 };

const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

async function submitBench(file: string, lengthMm: number, widthMm: number) {
  const png = readFileSync(join(benchDir, file));
  const job = await openJob(service, { productType: 'bracelet', size: { lengthMm }, widthMm });
  const response = await uploadPng(service, job, png);
  const body: any = await response.json();
  expect(response.status, JSON.stringify(body.submission?.validation ?? body)).toBe(200);
  const s = body.submission;
  const svg = await (
    await service.api(`/jobs/${job.id}/submissions/${s.no}/cutouts.svg`, { headers: bearer(job.secret) })
  ).text();
  const report = checkCutSvg(svg, rules);
  expect({
    format: report.formatProblems,
    polygons: report.polygonProblems,
    pieces: report.pieces,
    islands: report.islands,
    thinMetal: report.thinMetal,
    narrowOpenings: report.narrowOpenings,
  }).toEqual({ format: [], polygons: [], pieces: 1, islands: [], thinMetal: [], narrowOpenings: [] });
  const drawing = await readDrawing(png, { lengthMm: report.lengthMm, widthMm: report.widthMm });
  const despeckleAreaMm2 = defaultConfig.manufacturing.despeckleAreaFraction * lengthMm * widthMm;
  const faithful = faithfulness(report, drawing, s.validation.warnings, rules, {
    despeckleAreaMm2,
    locationCap: MAX_LOCATIONS,
  });
  expect(faithful.failures).toEqual([]);
  return s;
}

describe('the shared benchmark designs at the default configuration', () => {
  it('strip-100-holes as 155 x 19.97 mm: ready, the five narrow webs widened and named, the file passes the checker', async () => {
    const s = await submitBench('strip-100-holes-1536x1024.png', 155, 19.97);
    const codes = s.validation.warnings.map((w: { code: string }) => w.code);
    expect(codes).toEqual(expect.arrayContaining(['OPENING_REMOVED', 'NECK_THICKENED']));
    expect(codes).not.toContain('SPURS_SHAVED');
    const widened = s.validation.warnings.find((w: { code: string }) => w.code === 'NECK_THICKENED').locations;
    for (const [x, y] of [
      [115.0, 14.6],
      [27.6, 14.5],
      [43.1, 5.6],
      [37.3, 14.2],
      [25.0, 5.5],
    ]) {
      const near = widened.some((l: { x: number; y: number }) => Math.hypot(l.x - x!, l.y - y!) < 1);
      expect(near, `a NECK_THICKENED location within 1 mm of (${x}, ${y})`).toBe(true);
    }
  }, 120_000);

  it('lace-530-holes as 165 x 35 mm: ready as drawn, the file passes the checker', async () => {
    const s = await submitBench('lace-530-holes-1536x1024.png', 165, 35);
    expect(s.validation.warnings).toEqual([]);
    expect(s.geometry.cuts).toBeGreaterThanOrEqual(530);
  }, 120_000);

  it('lace-530-holes at 24 MP as 165 x 35 mm: ready as drawn, the file passes the checker', async () => {
    const s = await submitBench('lace-530-holes-24mp-6000x4000.png', 165, 35);
    expect(s.validation.warnings).toEqual([]);
    expect(s.geometry.cuts).toBeGreaterThanOrEqual(530);
  }, 120_000);
});
