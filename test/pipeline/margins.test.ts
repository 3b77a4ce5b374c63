import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { submissionEnvelopeSchema } from '../../core/contract/submission.ts';
import { canvasSvg, inStrip, rect, renderPng, WHITE } from '../fixtures/pipeline/draw.ts';
import { designFixture, GEOMETRY } from '../fixtures/pipeline/designs.ts';
import { checkCutSvg, distanceTransform, type CutReport } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { connectMcp, textOf } from '../helpers/mcp.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * validation.margins through the real pipeline on the real service: how close an analysed design
 * came to the floors, measured against the drawing and against the independent checker
 * (test/helpers/cut-check, which rasterises the cutting file and shares no code with the pipeline).
 */
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 };
/** The default bracelet's strip as the fixtures draw it: 1408 x 182 px, 0.110 mm a pixel. */
const S = GEOMETRY.strip;
const BRACELET = { productType: 'bracelet', size: { lengthMm: 155 }, widthMm: 20 };

const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

async function submit(png: Buffer, body: unknown = BRACELET) {
  const job = await openJob(service, body);
  const response = await uploadPng(service, job, png);
  const json: any = await response.json();
  expect(() => submissionEnvelopeSchema.parse(json)).not.toThrow();
  return { job, status: response.status, submission: json.submission };
}

async function cuttingFile(job: { id: string; secret: string }, no: number): Promise<string> {
  const response = await service.api(`/jobs/${job.id}/submissions/${no}/cutouts.svg`, { headers: bearer(job.secret) });
  expect(response.status).toBe(200);
  return response.text();
}

/** The checker's distance (mm) from a point of the strip to the nearest air, on its own raster of the file. */
function distanceToAir(report: CutReport, x: number, y: number): number {
  const { grid } = report;
  const field = distanceTransform(grid.metal, 0, grid.nx, grid.ny, grid.dx, grid.dy);
  const i = grid.pad + Math.floor(x / grid.dx);
  const j = grid.pad + Math.floor(y / grid.dy);
  return Math.sqrt(field.sq[j * grid.nx + i]!);
}

/** Whether the uploaded image is ink (dark) at a pixel. */
async function inkAt(png: Buffer, px: { x: number; y: number }): Promise<boolean> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data[px.y * info.width + px.x]! < 128;
}

describe('validation.margins of a ready design', () => {
  it('gives the lace its 7 px (0.77 mm) bars within a drawing pixel, at the middle of a bar, and no opening under 0.6 mm', async () => {
    const fixture = designFixture('lace');
    const png = await fixture.png();
    const { job, status, submission } = await submit(png);
    expect(status).toBe(200);
    const { narrowestMetal: metal, narrowestOpening, searchedUpToMm } = submission.validation.margins;
    expect(searchedUpToMm).toEqual({ metal: 2.6, opening: 0.6 });
    expect(narrowestOpening).toBeNull();
    expect(metal.floorMm).toBe(0.6);
    expect(metal.widthMm).toBeGreaterThanOrEqual(0.6);
    expect(Math.abs(metal.widthMm - GEOMETRY.lace.bar * S.mmPerPx)).toBeLessThanOrEqual(S.mmPerPx);
    // The checker's raster of the file: the place is half the width from the air, the middle of a bar.
    const report = checkCutSvg(await cuttingFile(job, submission.no), rules);
    expect(Math.abs(2 * distanceToAir(report, metal.at.x, metal.at.y) - metal.widthMm)).toBeLessThanOrEqual(0.06);
    // Its radius reaches both ends of the chord.
    expect(metal.at.r).toBeGreaterThanOrEqual(metal.widthMm / 2);
    expect(metal.at.r).toBeLessThanOrEqual(metal.widthMm / 2 + 0.01);
    // The same place in the uploaded image is ink: the bar as drawn.
    expect(await inkAt(png, metal.at.px)).toBe(true);
  }, 60_000);

  it('gives the bar between two windows as widened (0.7 mm and a little more), where it is; the checker finds metal that narrow there and nothing narrower', async () => {
    const { job, status, submission } = await submit(await designFixture('bar-between-windows').png());
    expect(status).toBe(200);
    const metal = submission.validation.margins.narrowestMetal;
    const barX = (GEOMETRY.bar.barX + GEOMETRY.bar.bar / 2) * S.mmPerPx;
    expect(Math.abs(metal.at.x - barX)).toBeLessThan(0.5);
    expect(metal.widthMm).toBeGreaterThanOrEqual(0.7);
    expect(metal.widthMm).toBeLessThan(0.9);
    const svg = await cuttingFile(job, submission.no);
    const wider = checkCutSvg(svg, { ...rules, minMetalMm: metal.widthMm + 0.1 });
    expect(wider.thinMetal.some((p) => Math.abs(p.x - metal.at.x) < 0.5)).toBe(true);
    const narrower = checkCutSvg(svg, { ...rules, minMetalMm: metal.widthMm - 0.05 });
    expect(narrower.thinMetal).toEqual([]);
  }, 60_000);

  it('answers the same margins when the submission is read back', async () => {
    const { job, submission } = await submit(await designFixture('sharp-star').png());
    const read = await service.api(`/jobs/${job.id}/submissions/${submission.no}`, { headers: bearer(job.secret) });
    const body: any = await read.json();
    expect(body.submission.validation.margins).toEqual(submission.validation.margins);
    expect(submission.validation.margins.narrowestOpening.widthMm).toBeGreaterThanOrEqual(0.2);
  }, 60_000);

  it('carries the margins in submit_design’s structured content and its summary', async () => {
    const mcp = await connectMcp(service);
    try {
      const open = await mcp.call('open_job', { productType: 'bracelet', lengthMm: 155, widthMm: 20 });
      const jobId = (open.structuredContent as any).job.id;
      const png = await designFixture('lace').png();
      const result = await mcp.call('submit_design', { jobId, pngBase64: png.toString('base64') });
      const margins = (result.structuredContent as any).margins;
      expect(margins.narrowestMetal.widthMm).toBeGreaterThanOrEqual(0.6);
      expect(textOf(result)).toContain(`Margins: narrowest metal ${margins.narrowestMetal.widthMm} mm (floor 0.6 mm)`);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});

describe('validation.margins of a refused design', () => {
  it('gives the narrowest opening the final check refused, below its floor, where OPENING_TOO_SMALL points', async () => {
    const { status, submission } = await submit(await designFixture('slot-round-island').png());
    expect(status).toBe(422);
    const opening = submission.validation.margins.narrowestOpening;
    expect(opening.floorMm).toBe(0.2);
    expect(opening.widthMm).toBeLessThan(0.2);
    const refused = submission.validation.errors.find((e: any) => e.code === 'OPENING_TOO_SMALL');
    expect(
      refused.locations.some((l: any) => Math.hypot(l.x - opening.at.x, l.y - opening.at.y) <= l.r + opening.at.r),
    ).toBe(true);
  }, 60_000);

  it('gives the narrowest metal the final check refused, under its floor, on a bar drawn too thin', async () => {
    // 30 px windows with 3 px (0.33 mm) bars between them, too many to widen (NECK_TOO_THIN).
    const elements = [rect(0, 0, S.width, S.height)];
    for (let x = 10; x + 30 < S.width - 10; x += 33) {
      for (let y = 10; y + 30 < S.height - 10; y += 33) elements.push(rect(x, y, 30, 30, WHITE));
    }
    const png = await renderPng(canvasSvg([inStrip(S, elements)]));
    const { status, submission } = await submit(png);
    expect(status).toBe(422);
    expect(submission.validation.errors.map((e: any) => e.code)).toContain('NECK_TOO_THIN');
    const metal = submission.validation.margins.narrowestMetal;
    expect(metal.floorMm).toBe(0.6);
    expect(metal.widthMm).toBeLessThan(0.6);
    expect(Math.abs(metal.widthMm - 3 * S.mmPerPx)).toBeLessThanOrEqual(S.mmPerPx + 0.05);
    expect(await inkAt(png, metal.at.px)).toBe(true);
  }, 60_000);

  it('has no margins when the analysis stopped before the final check', async () => {
    const { status, submission } = await submit(await designFixture('all-white').png());
    expect(status).toBe(422);
    expect(submission.validation.errors.map((e: any) => e.code)).toEqual(['NO_DESIGN_FOUND']);
    expect(submission.validation).not.toHaveProperty('margins');
  }, 60_000);
});

describe('validation.margins of generated designs', () => {
  /**
   * Two windows side by side with a bar of `bar` px between them, rims to the long edges wider
   * than the bar, and far from them a slot `slot` px wide: the bar is the narrowest metal and the
   * slot the narrowest opening, each as drawn within a drawing pixel (0.11 mm) + 0.05 mm, unless
   * the bar was drawn under the floor and widened (NECK_THICKENED): then as widened, to 0.7 mm or
   * a little more. Never under the floor on a ready design.
   */
  const design = fc.record({
    bar: fc.integer({ min: 4, max: 22 }),
    extraRim: fc.integer({ min: 9, max: 20 }),
    left: fc.integer({ min: 30, max: 250 }),
    right: fc.integer({ min: 30, max: 250 }),
    slot: fc.integer({ min: 3, max: 5 }),
  });

  it('gives the drawn bar as the narrowest metal, never under the floor, and the drawn slot as the narrowest opening', async () => {
    await fc.assert(
      fc.asyncProperty(design, async (d) => {
        const rim = d.bar + d.extraRim;
        const h = S.height - 2 * rim;
        const elements = [
          rect(0, 0, S.width, S.height),
          rect(760 - d.left, rim, d.left, h, WHITE),
          rect(760 + d.bar, rim, d.right, h, WHITE),
          rect(200, Math.round(S.height / 2) - 2, 60, d.slot, WHITE),
        ];
        const { status, submission } = await submit(await renderPng(canvasSvg([inStrip(S, elements)])));
        expect(status).toBe(200);
        const { narrowestMetal: metal, narrowestOpening: opening } = submission.validation.margins;
        const tolerance = S.mmPerPx + 0.05;
        const widened = submission.validation.warnings.some((w: any) => w.code === 'NECK_THICKENED');
        expect(metal.widthMm).toBeGreaterThanOrEqual(0.6);
        // Widened to the neck target (0.7 mm), by up to two working pixels (0.05 mm) more.
        if (widened) expect(metal.widthMm).toBeLessThanOrEqual(0.8);
        else expect(Math.abs(metal.widthMm - d.bar * S.mmPerPx)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(metal.at.x - (760 + d.bar / 2) * S.mmPerPx)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(opening.widthMm - d.slot * S.mmPerPx)).toBeLessThanOrEqual(tolerance);
        expect(opening.at.x).toBeGreaterThan(200 * S.mmPerPx);
        expect(opening.at.x).toBeLessThan(260 * S.mmPerPx);
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
