import { describe, expect, it } from 'vitest';
import { effectiveShade, faithfulRing, simplifyRing } from '../../../core/pipeline/vector/faithful-ring.ts';
import { traceFinalCuts } from '../../../core/pipeline/stages/final-cut.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { resampleToStrip } from '../../../core/pipeline/stages/resample.ts';
import { traceCuts } from '../../../core/pipeline/stages/trace.ts';
import { checkCutSvg } from '../../helpers/cut-check/index.ts';
import { cuttingSvg } from '../../helpers/cut-check/test-shapes.ts';
import { ctx, finalCutOptions } from '../stages/draw.ts';

/**
 * A rail over a letter's flat top, drawn at 0.115 mm a pixel with anti-aliased edges, `gapMm` apart:
 * the slit between them, as a Hebrew name between two rails leaves it. Shades are 255 less the
 * luminance (at least 128 is metal), one column repeated; the slit is closed at both ends by posts.
 */
function slitDrawing(gapMm: number): { crop: Uint8Array; bw: number; bh: number; mm: number } {
  const mm = 0.115;
  const [bw, bh] = [120, 40];
  const railEnd = 10 * mm + 0.037;
  const letterTop = railEnd + gapMm;
  const crop = new Uint8Array(bw * bh);
  for (let y = 0; y < bh; y++) {
    // Each pixel's share of metal: the rail above railEnd, the letter below letterTop.
    const top = y * mm;
    const bottom = (y + 1) * mm;
    const rail = Math.max(0, Math.min(bottom, railEnd) - top) / mm;
    const letter = Math.max(0, bottom - Math.max(top, letterTop)) / mm;
    const shade = Math.round(255 * Math.min(1, rail + letter));
    for (let x = 0; x < bw; x++) crop[y * bw + x] = x < 8 || x >= bw - 8 ? 255 : shade;
  }
  return { crop, bw, bh, mm };
}

function working(gapMm: number): StripRaster {
  const { crop, bw, bh, mm } = slitDrawing(gapMm);
  return resampleToStrip(
    crop,
    { x0: 0, y0: 0, x1: bw - 1, y1: bh - 1 },
    { lengthMm: bw * mm, widthMm: bh * mm },
    {
      mmPerPx: 0.05,
      maxPixels: 1e6,
    },
  );
}

/** The slit's width across its middle in the cuts: where its ring crosses the line x = 6 mm. */
function slitWidth(cuts: ReturnType<typeof traceCuts>): number {
  const ys: number[] = [];
  for (const { outer } of cuts) {
    outer.forEach(([ax, ay], k) => {
      const [bx, by] = outer[(k + 1) % outer.length]!;
      if ((ax - 6) * (bx - 6) < 0) ys.push(ay + ((6 - ax) * (by - ay)) / (bx - ax));
    });
  }
  return Math.max(...ys) - Math.min(...ys);
}

describe('tracing as drawn (faithful-ring.ts)', () => {
  it('follows the drawn edge between pixels where the working raster put it on a pixel boundary', () => {
    // A 0.23 mm slit samples onto 4 or 5 working pixels of 0.05 mm; read from the shades it is 0.23 mm,
    // give or take what reading a pixel's share of ink linearly costs (a tenth of a drawing pixel an edge).
    for (const gap of [0.23, 0.215, 0.27]) {
      const raster = working(gap);
      const cuts = traceCuts(raster, { toleranceMm: 0.02, alphaMax: 0.8, faithfulAt: [{ x: 6, y: 1.3, r: 1 }] });
      expect(Math.abs(slitWidth(cuts) - gap), `gap ${gap}`).toBeLessThanOrEqual(0.023);
    }
  });

  it('ships a slit drawn 0.215 mm wide that the working pixels and potrace narrowed under the floor', () => {
    const raster = working(0.215);
    const plain = traceCuts(raster, { toleranceMm: 0.02, alphaMax: 0.8 });
    // Potrace's curves on the pixels: under the floor.
    expect(slitWidth(plain)).toBeLessThan(0.2);
    const strip = { lengthMm: raster.w * raster.mmPerPxX, widthMm: raster.h * raster.mmPerPxY };
    const out = traceFinalCuts(raster, strip, { ...finalCutOptions, refusedMetal: [] }, ctx);
    expect(out.errors).toEqual([]);
    const rings = out.cuts.map((c) => [c.outer, ...c.holes].map((ring) => ring));
    const svg = cuttingSvg(
      strip.lengthMm,
      strip.widthMm,
      rings.map((cut) =>
        cut.map((ring) =>
          Array.from({ length: ring.length / 2 }, (_, i): [number, number] => [
            ring[2 * i]! / 1000,
            ring[2 * i + 1]! / 1000,
          ]),
        ),
      ),
    );
    expect(
      checkCutSvg(svg, { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 }).narrowOpenings,
    ).toEqual([]);
  });

  it('reads a pixel a stage changed as full metal or air, and the drawing elsewhere', () => {
    const raster = working(0.23);
    const changed = raster.data.slice();
    const i = changed.indexOf(0);
    changed[i] = 1;
    const field = effectiveShade({ ...raster, data: changed });
    expect(field[i]).toBe(255);
    const j = changed.indexOf(1);
    expect(field[j]).toBe(raster.shade![j]);
    expect(effectiveShade({ ...raster, shade: undefined })[j]).toBe(255);
  });

  it('keeps metal that touches at a corner joined, as potrace does: the air pixels on either side are two rings', () => {
    // Two air pixels at (1, 1) and (2, 2) of a 4 x 4 metal field touch only at a corner.
    const shade = new Uint8Array(16).fill(255);
    shade[5] = 0;
    shade[10] = 0;
    const field = { shade, w: 4, h: 4, pad: 0 };
    const map = { sx: 1, sy: 1, ox: 0, oy: 0 };
    const first = faithfulRing(field, 0, 1, map);
    const second = faithfulRing(field, 1, 2, map);
    // Each ring goes round its own pixel only: every point within a pixel of its centre.
    expect(first.every(([x, y]) => Math.hypot(x - 1.5, y - 1.5) <= 0.71)).toBe(true);
    expect(second.every(([x, y]) => Math.hypot(x - 2.5, y - 2.5) <= 0.71)).toBe(true);
  });

  it('drops only the points within the tolerance of the line through their neighbours', () => {
    const ring: [number, number][] = [
      [0, 0],
      [1, 0.001],
      [2, 0],
      [2, 2],
      [1, 2.5],
      [0, 2],
    ];
    expect(simplifyRing(ring, 0.003)).toEqual([
      [0, 0],
      [2, 0],
      [2, 2],
      [1, 2.5],
      [0, 2],
    ]);
  });
});
