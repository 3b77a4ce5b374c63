import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { submissions } from '../db/schema.ts';
import { findSubmission } from '../core/jobs/job-store.ts';
import { ringRadius } from '../core/submissions/findings-picture/marks.ts';
import { pictureStyle } from '../core/submissions/findings-picture/style.ts';
import { drawFindingsPicture, type PictureLayout } from '../core/submissions/findings-picture/findings-picture.ts';
import { pictureInput } from '../core/submissions/read-picture.ts';
import { designFixture, type DesignFixture } from './fixtures/pipeline/designs.ts';
import { bearer, errorOf, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import {
  colourDistance,
  countColour,
  decodeRgb,
  ERROR_RGB,
  isColour,
  ringCoverage,
  WARNING_RGB,
  type Rgb,
} from './helpers/picture.ts';
import { servicePerTest, type TestService, servicePerFile } from './helpers/service.ts';

/*
 * GET /jobs/{jobId}/submissions/{no}/findings.png on the real service. The pictures come from
 * real drawings through the real pipeline (worker threads); each ring is looked for in the
 * decoded picture where the finding's own `px` puts it, and the place is checked on the drawing.
 */

const picturePath = (job: OpenedJob, no: number | string) => `/jobs/${job.id}/submissions/${no}/findings.png`;

async function getPicture(service: TestService, job: OpenedJob, no: number | string, secret = job.secret) {
  return service.api(picturePath(job, no), { headers: bearer(secret) });
}

/** The uploaded image as luminance, to check where a finding points. */
async function luminance(png: Buffer) {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, at: (x: number, y: number) => data[y * info.width + x]! };
}

describe('the findings picture of real drawings', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

  async function submit(fixture: DesignFixture, png?: Buffer) {
    const { productType, lengthMm, widthMm } = fixture.job;
    const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
    const response = await uploadPng(service, job, png ?? (await fixture.png()));
    const body: any = await response.json();
    return { job, status: response.status, submission: body.submission };
  }

  /** Where the picture puts the drawing (blank rows above and below it are left out). */
  async function layoutOf(job: OpenedJob, no: number) {
    const row = await findSubmission(service.db.orm, job.id, no);
    return (await drawFindingsPicture(pictureInput(row!, service.core.config)!)).layout;
  }

  /** An upload pixel's place on the picture. */
  const onPicture = (layout: PictureLayout, px: { x: number; y: number }) => ({
    x: layout.drawing.left + px.x * layout.drawing.kx,
    y: layout.drawing.top + px.y * layout.drawing.ky,
  });

  /** The drawing's part of the picture (the legend's colour keys are below it). */
  const drawingArea = (layout: PictureLayout) => ({
    left: 0,
    top: 0,
    width: layout.width,
    height: layout.drawing.height,
  });

  /** Fetches and decodes the picture, with the route's headers checked. */
  async function picture(job: OpenedJob, no: number): Promise<Rgb> {
    const response = await getPicture(service, job, no);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    return decodeRgb(new Uint8Array(await response.arrayBuffer()));
  }

  it('circles the pinched slot on its pinch, in the error colour, numbered 1', async () => {
    const fixture = designFixture('pinched-slot');
    const png = await fixture.png();
    const { job, status, submission } = await submit(fixture, png);
    expect(status).toBe(422);
    const [error] = submission.validation.errors;
    expect(error.code).toBe('OPENING_TOO_SMALL');
    const at = error.locations[0].px;

    // The place is on the defect in the drawing: in its column the opening is one pixel high
    // there, with metal above and below (the rest of the slot is 9 px high).
    const drawing = await luminance(png);
    const column = Array.from({ length: 13 }, (_, i) => drawing.at(at.x, at.y - 6 + i) >= 128);
    const open = column.filter(Boolean).length;
    expect(open, JSON.stringify(at)).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(2);
    expect(column[0]).toBe(false);
    expect(column[12]).toBe(false);

    // The picture: the 1536-wide upload is drawn 1:1 (blank rows cut), and a solid error ring circles the place.
    const img = await picture(job, submission.no);
    const layout = await layoutOf(job, submission.no);
    expect([img.width, img.height]).toEqual([layout.width, layout.height]);
    expect(img.width).toBe(1536);
    expect(layout.drawing).toMatchObject({ left: 0, kx: 1, ky: 1 });
    expect(layout.drawing.height).toBeLessThan(1024);
    const c = onPicture(layout, at);
    const r = ringRadius(at.r);
    expect(ringCoverage(img, c.x, c.y, r, ERROR_RGB)).toBeGreaterThan(0.95);
    // A ring, not a blot: the defect itself still shows through.
    expect(isColour(img, c.x, c.y, ERROR_RGB)).toBe(false);
    expect(ringCoverage(img, c.x, c.y, r, WARNING_RGB)).toBe(0);
    // Its number sits in a badge of the same colour, up and to the right of the ring.
    const reach = r + pictureStyle.badgeHeightPx / 2;
    const badge = {
      left: Math.round(c.x + reach * Math.SQRT1_2) - 8,
      top: Math.round(c.y - reach * Math.SQRT1_2) - 8,
    };
    expect(countColour(img, { ...badge, width: 16, height: 16 }, ERROR_RGB)).toBeGreaterThan(100);
  });

  it('scales a larger upload down to 1536 px wide and keeps each ring on its place', async () => {
    const fixture = designFixture('pinched-slot');
    const small = await fixture.png();
    const large = await sharp(small).resize({ width: 3072, kernel: 'nearest' }).png().toBuffer();
    const { job, status, submission } = await submit(fixture, large);
    expect(status).toBe(422);
    const at = submission.validation.errors[0].locations[0].px;
    const img = await picture(job, submission.no);
    const layout = await layoutOf(job, submission.no);
    expect([img.width, img.height]).toEqual([layout.width, layout.height]);
    expect(img.width).toBe(1536);
    expect(layout.drawing).toMatchObject({ kx: 0.5, ky: 0.5 });
    const c = onPicture(layout, at);
    expect(ringCoverage(img, c.x, c.y, ringRadius(at.r * 0.5), ERROR_RGB)).toBeGreaterThan(0.95);
  });

  it('circles an engine change in the warning colour, on the island it bridged, and shows it before and after', async () => {
    const fixture = designFixture('island-near-metal');
    const png = await fixture.png();
    const { job, status, submission } = await submit(fixture, png);
    expect(status).toBe(200);
    const [warning] = submission.validation.warnings;
    expect(warning.code).toBe('ISLAND_BRIDGED');
    const at = warning.locations[0].px;

    // On the island, and over the gap its bar crosses to the metal beyond (docs/decisions.md, Islands: the
    // place of ISLAND_BRIDGED reaches the bar's far end): metal at the place, air half way out, metal
    // again where the circle ends.
    const drawing = await luminance(png);
    expect(drawing.at(at.x, at.y)).toBeLessThan(128);
    const around = (d: number, dark: boolean) =>
      [-1, 1].every((s) =>
        [drawing.at(at.x + s * d, at.y), drawing.at(at.x, at.y + s * d)].every((v) => v < 128 === dark),
      );
    expect(around(at.r / 2, false)).toBe(true);
    expect(around(at.r, true)).toBe(true);

    const img = await picture(job, submission.no);
    const layout = await layoutOf(job, submission.no);
    const c = onPicture(layout, at);
    const r = ringRadius(at.r);
    // Dashed, so part of the way round; and nowhere in the error colour on the drawing.
    expect(ringCoverage(img, c.x, c.y, r, WARNING_RGB)).toBeGreaterThan(0.5);
    expect(countColour(img, drawingArea(layout), ERROR_RGB)).toBe(0);
    expect(colourDistance(ERROR_RGB, WARNING_RGB)).toBeGreaterThan(200);
    // Below the legend: the change, drawn and cut.
    expect(layout.insets).toEqual([expect.objectContaining({ no: 1, code: 'ISLAND_BRIDGED' })]);
    expect(img.height).toBeGreaterThan(layout.insets[0]!.before.top + layout.insets[0]!.size);
  });

  it('stores where the strip lies in the upload, and draws the changes from it', async () => {
    const fixture = designFixture('island-near-metal');
    const png = await fixture.png();
    const { job, status, submission } = await submit(fixture, png);
    expect(status).toBe(200);
    // The piece's box, read off the upload here: every dark pixel of this drawing is the piece's.
    const drawing = await luminance(png);
    const box = { x0: drawing.w, y0: drawing.h, x1: -1, y1: -1 };
    for (let y = 0; y < drawing.h; y++) {
      for (let x = 0; x < drawing.w; x++) {
        if (drawing.at(x, y) >= 128) continue;
        box.x0 = Math.min(box.x0, x);
        box.y0 = Math.min(box.y0, y);
        box.x1 = Math.max(box.x1, x);
        box.y1 = Math.max(box.y1, y);
      }
    }
    const row = await findSubmission(service.db.orm, job.id, submission.no);
    const placement = row!.stripPlacement as any;
    expect(placement.box).toEqual(box);
    expect(placement.lengthMm).toBeCloseTo(submission.geometry.lengthMm, 2);
    expect(placement.widthMm).toBeCloseTo(submission.geometry.widthMm, 2);

    // The inset of the drawing before the change is cut at the stored scale: a placement twice as
    // wide draws another picture, and one found again from the drawing draws the same as the stored.
    const input = pictureInput(row!, service.core.config)!;
    expect(input.placement).toEqual(placement);
    const drawn = (await drawFindingsPicture(input)).png;
    const doubled = { ...placement, box: { ...box, x1: box.x1 + (box.x1 - box.x0 + 1) } };
    expect((await drawFindingsPicture({ ...input, placement: doubled })).png.equals(drawn)).toBe(false);
    expect((await drawFindingsPicture({ ...input, placement: undefined })).png.equals(drawn)).toBe(true);
  });

  it('shows a widened neck thin as drawn and at the metal floor as cut', async () => {
    const fixture = designFixture('thin-neck');
    const { job, status, submission } = await submit(fixture);
    expect(status).toBe(200);
    expect(submission.validation.warnings.map((w: any) => w.code)).toEqual(['NECK_THICKENED']);
    const img = await picture(job, submission.no);
    const layout = await layoutOf(job, submission.no);
    expect(layout.width).toBe(img.width);
    expect(layout.insets).toHaveLength(1);
    const inset = layout.insets[0]!;
    expect(inset).toMatchObject({ no: 1, code: 'NECK_THICKENED' });
    // The bar runs top to bottom through the middle of each square: count its dark pixels in a
    // band across the middle (the two openings on either side are white).
    const band = (left: number) => {
      let dark = 0;
      const y = inset.before.top + Math.round(inset.size / 2) - 10;
      for (let yy = y; yy < y + 20; yy++)
        for (let x = left + inset.size / 2 - 30; x < left + inset.size / 2 + 30; x++) {
          const i = (yy * img.width + x) * 3;
          if (img.data[i]! < 60 && img.data[i + 1]! < 60 && img.data[i + 2]! < 60) dark++;
        }
      return dark / 20;
    };
    const drawn = band(inset.before.left);
    const cut = band(inset.after.left);
    // 3 px (0.33 mm) drawn, 0.6 mm cut: the cut bar is clearly wider, by about 0.6 / 0.33.
    expect(drawn).toBeGreaterThan(2);
    expect(cut / drawn).toBeGreaterThan(1.4);
  });

  it('draws a clean ready design with a legend and no rings', async () => {
    const { job, status, submission } = await submit(designFixture('clean-holes'));
    expect(status).toBe(200);
    const img = await picture(job, submission.no);
    const layout = await layoutOf(job, submission.no);
    expect(layout.insets).toEqual([]);
    expect(countColour(img, drawingArea(layout), ERROR_RGB)).toBe(0);
    expect(countColour(img, drawingArea(layout), WARNING_RGB)).toBe(0);
  });
});

describe('GET /jobs/{jobId}/submissions/{no}/findings.png answers like the SVG routes', () => {
  const service = servicePerTest();
  let seed = 1;

  async function uploaded(script?: 'invalid' | 'failed') {
    const job = await openJob(service);
    const png = makePng({ width: 600, height: 400, seed: seed++ });
    if (script) service.pipeline.script(png, script);
    const response = await uploadPng(service, job, png);
    return { job, status: response.status };
  }

  it('serves ready and failed_validation submissions as PNG, HEAD without a body', async () => {
    const ready = await uploaded();
    expect(ready.status).toBe(200);
    const refused = await uploaded('invalid');
    expect(refused.status).toBe(422);
    for (const { job } of [ready, refused]) {
      const response = await getPicture(service, job, 1);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBeLessThanOrEqual(1536);
      const head = await service.api(picturePath(job, 1), { method: 'HEAD', headers: bearer(job.secret) });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
  });

  it('hides the job behind its secret: missing, wrong and unknown all answer 404 No such job.', async () => {
    const { job } = await uploaded();
    for (const response of [
      await service.api(picturePath(job, 1)),
      await getPicture(service, job, 1, `ajs_${'x'.repeat(43)}`),
      await service.api(`/jobs/00000000-0000-4000-8000-000000000000/submissions/1/findings.png`, {
        headers: bearer(job.secret),
      }),
    ]) {
      expect(await errorOf(response)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'No such job.' });
    }
  });

  it('answers 404 for an unknown submission, a technical failure and a submission kept without its drawing', async () => {
    const { job } = await uploaded();
    expect(await errorOf(await getPicture(service, job, 7))).toMatchObject({
      status: 404,
      message: 'No such submission.',
    });
    expect(await errorOf(await getPicture(service, job, 'x'))).toMatchObject({
      status: 404,
      message: 'No such submission.',
    });

    const failed = await uploaded('failed');
    expect(failed.status).toBe(502);
    expect(await errorOf(await getPicture(service, failed.job, 1))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No such file for this submission.',
    });

    // Stored before the drawing copy was kept: no picture, the same file 404.
    await service.db.write((tx) =>
      tx
        .update(submissions)
        .set({ drawingPng: null, drawingSourcePx: null })
        .where(and(eq(submissions.jobId, job.id), eq(submissions.no, 1))),
    );
    expect(await errorOf(await getPicture(service, job, 1))).toMatchObject({
      status: 404,
      message: 'No such file for this submission.',
    });
  });

  it('answers 405 with Allow for other methods, and 404 once the job is cancelled', async () => {
    const { job } = await uploaded();
    const post = await service.api(picturePath(job, 1), { method: 'POST', headers: bearer(job.secret) });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const cancel = await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) });
    expect(cancel.status).toBe(200);
    expect(await errorOf(await getPicture(service, job, 1))).toMatchObject({
      status: 404,
      message: 'No such submission.',
    });
  });
});
