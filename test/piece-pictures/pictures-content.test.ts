import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../core/config.ts';
import { flatLayout, wornLayout, type PieceShape } from '../../core/piece-pictures/layout.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { canvasSvg, circle, inStrip, rect, renderPng, spread, stripPx, WHITE } from '../fixtures/pipeline/draw.ts';
import { rasteriseCuts } from '../helpers/cut-check/rasterise.ts';
import { parseCutSvg } from '../helpers/cut-check/svg-format.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import {
  BentStrip,
  colourDistance,
  columnsWhere,
  decodeRgb,
  hsv,
  isBrass,
  isColour,
  isInk,
  pageFrameColour,
  rgbAt,
  type Rgb,
} from '../helpers/piece-picture-check.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * The pictures of the piece from real drawings through the real pipeline, fetched as a person's
 * browser fetches them and decoded: what each shows is checked against the stored cutting file,
 * rasterised here by the cut checker (which shares no code with the pictures), and against the
 * geometry of a bent strip worked out in `piece-picture-check.ts`.
 */

const config = buildConfig();
const PAPER = pageFrameColour();

/** A strip drawn on the job's hints: `holes` round openings of radius `r` px on its middle row, between `from` and `to` of its length. */
function holesDrawing(lengthMm: number, widthMm: number, holes: number, r: number, from = 0, to = 1): Promise<Buffer> {
  const s = stripPx(lengthMm, widthMm);
  const span = (to - from) * s.width;
  const openings = spread(holes, span).map((x) => circle(from * s.width + x, Math.round(s.height / 2), r, WHITE));
  return renderPng(canvasSvg([inStrip(s, [rect(0, 0, s.width, s.height), ...openings])]));
}

describe('the piece pictures of a ready submission, over HTTP', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

  async function ready(productType: 'bracelet' | 'ring', lengthMm: number, widthMm: number, png: Buffer) {
    const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
    const response = await uploadPng(service, job, png);
    const { submission }: any = await response.json();
    expect(response.status, JSON.stringify(submission?.validation)).toBe(200);
    const token: string = submission.approval.url.split('/a/')[1];
    const svg = await (
      await service.api(`/jobs/${job.id}/submissions/${submission.no}/cutouts.svg`, { headers: bearer(job.secret) })
    ).text();
    const shape: PieceShape = {
      productType,
      lengthMm: submission.geometry.lengthMm,
      widthMm: submission.geometry.widthMm,
      gapMm: config.products[productType].gapMm,
      thicknessMm: config.manufacturing.thicknessMm,
    };
    return { token, svg, shape, job };
  }

  async function picture(token: string, kind: 'flat' | 'worn'): Promise<Rgb> {
    const response = await service.fetch(`/a/${token}/${kind}.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    return decodeRgb(new Uint8Array(await response.arrayBuffer()));
  }

  it('flat: brass exactly where the cutting file has metal, the page’s paper in every opening, a ruler as long as the strip', async () => {
    const { token, svg, shape } = await ready('bracelet', 155, 20, await holesDrawing(155, 20, 7, 18));
    const img = await picture(token, 'flat');
    const layout = flatLayout(shape, config.pictures);
    expect([img.width, img.height]).toEqual([layout.width, layout.height]);

    // The stored file rasterised at the picture's scale; only pixels 2 px or more from a metal/air edge are judged.
    const cut = parseCutSvg(svg);
    expect(cut.problems).toEqual([]);
    const s = layout.pxPerMm;
    const grid = rasteriseCuts(cut.paths, cut.lengthU, cut.widthU, 1 / s, 0);
    const metalAt = (i: number, j: number) => grid.metal[j * grid.nx + i] === 1;
    let judged = 0;
    const wrong: string[] = [];
    for (let j = 2; j < grid.ny - 2; j++) {
      for (let i = 2; i < grid.nx - 2; i++) {
        const metal = metalAt(i, j);
        let uniform = true;
        for (let dj = -2; dj <= 2 && uniform; dj++)
          for (let di = -2; di <= 2 && uniform; di++) uniform = metalAt(i + di, j + dj) === metal;
        if (!uniform) continue;
        const x = Math.floor(layout.left + (i + 0.5) * grid.dx * s);
        const y = Math.floor(layout.top + (j + 0.5) * grid.dy * s);
        const rgb = rgbAt(img, x, y);
        judged++;
        if (metal ? !isBrass(rgb) : !isColour(rgb, PAPER))
          wrong.push(`${metal ? 'metal' : 'air'} at ${x},${y}: ${rgb}`);
      }
    }
    expect(judged).toBeGreaterThan(0.8 * grid.nx * grid.ny);
    expect(wrong.slice(0, 5)).toEqual([]);

    // Every opening's middle shows the paper.
    expect(cut.paths).toHaveLength(7);
    for (const [outer] of cut.paths) {
      const xs = outer!.filter((_, k) => k % 2 === 0);
      const ys = outer!.filter((_, k) => k % 2 === 1);
      const mx = xs.reduce((a, b) => a + b, 0) / xs.length / 1000;
      const my = ys.reduce((a, b) => a + b, 0) / ys.length / 1000;
      expect(isColour(rgbAt(img, layout.left + mx * s, layout.top + my * s), PAPER)).toBe(true);
    }

    // Polished, not flat: brass throughout, with a lighter sheen.
    const brass = sampleColours(img, layout.left, layout.top, 155 * s, 20 * s).filter(isBrass);
    const values = brass.map((c) => hsv(c).v).sort((a, b) => a - b);
    expect(values.at(-1)! - values[0]!).toBeGreaterThan(0.25);
    expect(values.at(-1)!).toBeGreaterThan(0.85);

    // The ruler's baseline runs exactly under the strip, from its left end to its right end.
    const [stripLeft, stripRight] = columnsWhere(img, isBrass)!;
    const baseline = inkRows(img, layout.top + 20 * s).sort((a, b) => b.run - a.run)[0]!;
    expect(Math.abs(baseline.first - stripLeft)).toBeLessThanOrEqual(3);
    expect(Math.abs(baseline.last - stripRight)).toBeLessThanOrEqual(3);
    expect((stripRight - stripLeft + 1) / s).toBeCloseTo(155, 0);
    // A long tick every 10 mm.
    for (let mm = 0; mm <= 150; mm += 10) {
      const x = Math.round(layout.left + mm * s);
      const rows = Array.from({ length: 12 }, (_, k) => baseline.y + 4 + k);
      const inked = rows.filter((y) => [x - 1, x, x + 1].some((c) => isInk(rgbAt(img, c, y)))).length;
      expect(inked, `tick at ${mm} mm`).toBe(rows.length);
    }
  });

  it('worn: the cuff bent round as wide as (L + gap) / π, its gap open at the back, its openings showing what is behind them', async () => {
    const { token, shape } = await ready('bracelet', 155, 20, await holesDrawing(155, 20, 7, 18));
    const img = await picture(token, 'worn');
    const layout = wornLayout(shape, config.pictures);
    expect([img.width, img.height]).toEqual([layout.width, layout.height]);
    const blank = { lengthMm: 155, widthMm: shape.widthMm, gapMm: 25, thicknessMm: 1.5 };
    const strip = new BentStrip(blank, config.pictures.worn, layout);

    // As wide as the bent strip's outer face: (155 + 25) / π + 1.5 mm.
    const [left, right] = columnsWhere(img, isBrass)!;
    expect((right - left + 1) / layout.pxPerMm).toBeGreaterThan(((155 + 25) / Math.PI + 1.5) * 0.985);
    expect((right - left + 1) / layout.pxPerMm).toBeLessThan(((155 + 25) / Math.PI + 1.5) * 1.015);

    // The gap: where the far wall would be in its middle half, nothing but paper (or the piece's shadow on it).
    const gap = farWallSamples(strip, 25 / (2 * strip.radiusMm) / 2);
    expect(gap.length).toBeGreaterThan(20);
    for (const { x, y } of gap) expect(isBrass(rgbAt(img, x, y)), `gap at ${x},${y}`).toBe(false);
    // Beside the gap the far wall is there.
    const wall = strip.project(strip.gapAzimuth + (2 * 25) / (2 * strip.radiusMm), 2, strip.radiusMm);
    expect(isBrass(rgbAt(img, wall.x, wall.y))).toBe(true);

    // The openings on the near wall show something else than its face: the far wall's inside, a cut wall, or the paper.
    const s = stripPx(155, 20);
    let seen = 0;
    for (const px of spread(7, s.width)) {
      const u = px * s.mmPerPx;
      const theta = strip.azimuth(u);
      if (Math.abs(theta) > 0.85) continue;
      const hole = strip.project(theta, 10, strip.outerMm);
      const face = strip.project(theta, 4, strip.outerMm);
      expect(colourDistance(rgbAt(img, hole.x, hole.y), rgbAt(img, face.x, face.y))).toBeGreaterThan(40);
      expect(isBrass(rgbAt(img, face.x, face.y))).toBe(true);
      seen++;
    }
    expect(seen).toBeGreaterThanOrEqual(3);

    // Lit brass: a bright highlight and a shaded side on the near wall's face.
    const across = Array.from({ length: 41 }, (_, k) => strip.project(-1.4 + (2.8 * k) / 40, 3, strip.outerMm));
    const values = across
      .map(({ x, y }) => rgbAt(img, x, y))
      .filter(isBrass)
      .map((c) => hsv(c).v);
    expect(values.length).toBeGreaterThan(35);
    expect(Math.max(...values)).toBeGreaterThan(0.85);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(0.3);
  });

  it('follows the link to a newer submission: its openings, not the old ones', async () => {
    const { token, job } = await ready('bracelet', 155, 20, await holesDrawing(155, 20, 3, 18));
    const before = await picture(token, 'flat');
    const second = await uploadPng(service, job, await holesDrawing(155, 20, 4, 18));
    expect(second.status).toBe(200);
    const after = await picture(token, 'flat');
    const layout = flatLayout(
      { productType: 'bracelet', lengthMm: 155, widthMm: 20, gapMm: 25, thicknessMm: 1.5 },
      config.pictures,
    );
    const s = stripPx(155, 20);
    const centre = (px: number) =>
      [layout.left + px * s.mmPerPx * layout.pxPerMm, layout.top + 10 * layout.pxPerMm] as const;
    for (const px of spread(4, s.width))
      expect(isColour(rgbAt(after, ...centre(px)), PAPER), `new opening at ${px}`).toBe(true);
    for (const px of spread(3, s.width)) {
      expect(isColour(rgbAt(before, ...centre(px)), PAPER)).toBe(true);
      expect(isBrass(rgbAt(after, ...centre(px))), `old opening at ${px} is metal now`).toBe(true);
    }
  });

  it('worn: the ring closed all round, with no gap', async () => {
    const drawing = await holesDrawing(60, 8, 4, 30, 0.3, 0.7);
    const { token, shape } = await ready('ring', 60, 8, drawing);
    expect(shape.gapMm).toBe(0);
    const img = await picture(token, 'worn');
    const layout = wornLayout(shape, config.pictures);
    const blank = { lengthMm: 60, widthMm: shape.widthMm, gapMm: 0, thicknessMm: 1.5 };
    const strip = new BentStrip(blank, config.pictures.worn, layout);
    const [left, right] = columnsWhere(img, isBrass)!;
    expect((right - left + 1) / layout.pxPerMm).toBeCloseTo(60 / Math.PI + 1.5, 0);
    // Where a cuff's gap would be, the ring's far wall, its two ends meeting without a seam.
    const back = farWallSamples(strip, 0.3);
    expect(back.length).toBeGreaterThan(20);
    for (const { x, y } of back) expect(isBrass(rgbAt(img, x, y)), `far wall at ${x},${y}`).toBe(true);
  });

  it('flat and worn keep a shaped end’s outline: no brass where the rounded ends cut the corners away', async () => {
    const fixture = designFixture('rounded-ends');
    const { token, shape } = await ready('bracelet', fixture.job.lengthMm, fixture.job.widthMm, await fixture.png());
    const img = await picture(token, 'flat');
    const layout = flatLayout(shape, config.pictures);
    const corner = rgbAt(img, layout.left + 0.6 * layout.pxPerMm, layout.top + 0.6 * layout.pxPerMm);
    expect(isColour(corner, PAPER, 6)).toBe(true);
    const middle = rgbAt(img, layout.left + 1 * layout.pxPerMm, layout.top + (shape.widthMm / 2) * layout.pxPerMm);
    expect(isBrass(middle)).toBe(true);
    expect((await service.fetch(`/a/${token}/worn.png`)).status).toBe(200);
  });
});

/** Points of the far wall within `halfAngle` of the gap's azimuth, not hidden behind the near wall. */
function farWallSamples(strip: BentStrip, halfAngle: number): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let a = -1; a <= 1.0001; a += 0.2) {
    for (let v = 0.1; v <= 0.9001; v += 0.1) {
      const p = strip.project(strip.gapAzimuth + a * halfAngle, v * strip.widthMm, strip.radiusMm);
      if (!strip.onNearWall(p.x, p.y, 4)) out.push(p);
    }
  }
  return out;
}

/** Colours on a grid over a box of the picture. */
function sampleColours(img: Rgb, left: number, top: number, width: number, height: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let y = top + 2; y < top + height - 2; y += 3)
    for (let x = left + 2; x < left + width - 2; x += 3) out.push(rgbAt(img, x, y));
  return out;
}

/** Rows below `fromY` with the longest run of ink on each. */
function inkRows(img: Rgb, fromY: number): { y: number; first: number; last: number; run: number }[] {
  const rows: { y: number; first: number; last: number; run: number }[] = [];
  for (let y = Math.ceil(fromY); y < img.height; y++) {
    let best = { first: 0, last: -1 };
    let start = -1;
    for (let x = 0; x <= img.width; x++) {
      const ink = x < img.width && isInk(rgbAt(img, x, y));
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) {
        if (x - start > best.last - best.first + 1) best = { first: start, last: x - 1 };
        start = -1;
      }
    }
    rows.push({ y, ...best, run: best.last - best.first + 1 });
  }
  return rows;
}
