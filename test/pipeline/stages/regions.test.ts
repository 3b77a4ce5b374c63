import { describe, expect, it } from 'vitest';
import { findRegions } from '../../../core/pipeline/stages/regions.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';

const STAGE = 'regions';

/**
 * A 60 x 30 mask: the piece (a 40 x 16 frame with a 20 x 8 opening), an island inside its
 * opening, a speck outside it and a diagonal blob touching the piece at a corner only (8-connected:
 * part of the piece).
 */
function drawing() {
  const [w, h] = [60, 30];
  const metal = new Uint8Array(w * h);
  const box = (x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y <= y1; y++) metal.fill(v, y * w + x0, y * w + x1 + 1);
  };
  box(5, 5, 44, 20, 1);
  box(15, 9, 34, 16, 0);
  box(23, 11, 26, 14, 1);
  box(52, 25, 53, 26, 1);
  box(45, 21, 47, 23, 1);
  return { metal, w, h };
}

describe('finding the piece (regions.ts)', () => {
  it('keeps the largest 8-connected region and the islands in its openings, and drops the rest', async () => {
    const { metal, w, h } = drawing();
    const before = metal.slice();
    const out = findRegions(metal, w, h);
    expect(metal).toEqual(before);
    expect(out.box).toEqual({ x0: 5, y0: 5, x1: 47, y1: 23 });
    expect(out).toMatchObject({ islands: 1, droppedRegions: 1 });
    const bw = out.box.x1 - out.box.x0 + 1;
    const bh = out.box.y1 - out.box.y0 + 1;
    // The kept crop is 255 for kept ink: as a 0/1 mask for the golden file.
    await expectGoldenRaster(STAGE, 'frame-island-speck', { w: bw, h: bh, data: out.keep.map((v) => (v ? 1 : 0)) });
    await expectGoldenJson(STAGE, 'frame-island-speck', {
      box: out.box,
      islands: out.islands,
      droppedRegions: out.droppedRegions,
      droppedShare: out.droppedShare,
    });
  });

  it("keeps the drawing's shades in the crop (255 less the luminance), and none of the ink it drops", () => {
    const { metal, w, h } = drawing();
    // Luminance: 0 on the ink, a grey edge (160, air) along the opening's left side, white elsewhere;
    // and a speck inside the piece's box but outside its outline, which is dropped.
    const lum = new Uint8Array(w * h).fill(255);
    metal.forEach((m, i) => (lum[i] = m ? 0 : 255));
    for (let y = 9; y <= 16; y++) lum[y * w + 15] = 160;
    metal[22 * w + 10] = 1;
    lum[22 * w + 10] = 20;
    const out = findRegions(metal, w, h, lum);
    expect(out.droppedRegions).toBe(2);
    const bw = out.box.x1 - out.box.x0 + 1;
    const at = (x: number, y: number) => out.keep[(y - out.box.y0) * bw + (x - out.box.x0)];
    expect([at(5, 5), at(24, 12), at(15, 12), at(20, 12), at(10, 22)]).toEqual([255, 255, 95, 0, 0]);
  });

  it('returns an empty crop when there is no ink', () => {
    const out = findRegions(new Uint8Array(12), 4, 3);
    expect(out.keep).toHaveLength(0);
    expect(out.droppedRegions).toBe(0);
  });
});
