import { describe, expect, it } from 'vitest';
import { traceFinalCuts } from '../../../core/pipeline/stages/final-cut.ts';
import { frameStrip } from '../../../core/pipeline/stages/frame.ts';
import { bridgeIslands } from '../../../core/pipeline/repair/islands.ts';
import { labelComponents } from '../../../core/pipeline/raster/components.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { fillUncuttableOpenings } from '../../../core/pipeline/stages/uncuttable-openings.ts';
import { expectGoldenJson, expectGoldenRaster } from '../../helpers/golden.ts';
import {
  codes,
  ctx,
  disc,
  fillOptions,
  finalCutOptions,
  findingsOf,
  frameOptions,
  leavesInputAlone,
  metalStrip,
  MM_PER_PX,
  rect,
  wedge,
} from './draw.ts';

const STAGE = 'frame';
const frame = (raster: StripRaster) => frameStrip(raster, frameOptions, ctx);
const pieces = (r: StripRaster) => labelComponents(r.data, r.w, r.h, 4).count;

/**
 * A 24 x 12 mm strip: a 4 x 3 mm window holding a 1 mm island 0.5 mm from its wall (within
 * reach: bridged), and a 10 x 10 mm window holding a 0.8 mm island 4.6 mm from every wall (out of
 * reach and small: removed).
 */
function islands(): StripRaster {
  const r = metalStrip(24, 12);
  rect(r, 1, 4.5, 4, 3, 0);
  disc(r, 2, 6, 0.5, 1);
  rect(r, 12, 1, 10, 10, 0);
  disc(r, 17, 6, 0.4, 1);
  return r;
}

/**
 * A 20 x 6 mm strip: two 3 mm windows either side of a 0.4 mm bar (too thin: widened), and a
 * third window with a hairline spur 0.2 mm wide and 1.5 mm long (shaved).
 */
function thinMetal(): StripRaster {
  const r = metalStrip(20, 6);
  rect(r, 1, 1.5, 3, 3, 0);
  rect(r, 4.4, 1.5, 3, 3, 0);
  rect(r, 10, 1.5, 4, 3, 0);
  rect(r, 10, 2.9, 1.5, 0.2, 1);
  return r;
}

describe('framing (frame.ts)', () => {
  it('bridges an island within reach and removes a small one out of reach, into one piece', async () => {
    const input = islands();
    expect(pieces(input)).toBe(3);
    const out = leavesInputAlone(input, frame);
    expect(codes(out.warnings)).toEqual(['ISLAND_BRIDGED', 'ISLAND_REMOVED']);
    expect(out.errors).toEqual([]);
    expect(pieces(out.raster)).toBe(1);
    expect(out.measured.thinMetal).toBe('settled');
    await expectGoldenRaster(STAGE, 'islands', out.raster);
    await expectGoldenJson(STAGE, 'islands', summary(out), 1e-6);
  });

  it('bridges an island thinner than the bar without the bar sticking out behind it', () => {
    // A 0.3 mm bar of metal floating in a window, 0.35 mm from its left wall and 0.25 mm from its
    // right: the bridge spans one gap, and a round end as wide as the bridge would reach past the
    // island into the other.
    const r = metalStrip(12, 6);
    rect(r, 4, 1, 0.9, 4, 0);
    rect(r, 4.35, 1.5, 0.3, 3, 1);
    const before = r.data.slice();
    const found = bridgeIslands(r, labelComponents(r.data, r.w, r.h, 4), frameOptions, ctx);
    expect(codes(found)).toEqual(['ISLAND_BRIDGED']);
    expect(pieces(r)).toBe(1);
    const added = (x0Mm: number, x1Mm: number): number => {
      let n = 0;
      for (let y = 0; y < r.h; y++) {
        for (let x = Math.floor(x0Mm / MM_PER_PX); x < Math.ceil(x1Mm / MM_PER_PX); x++) {
          if (r.data[y * r.w + x] !== before[y * r.w + x]) n++;
        }
      }
      return n;
    };
    const [left, right] = [added(4, 4.35), added(4.65, 4.9)];
    expect(Math.max(left, right)).toBeGreaterThan(0);
    expect(Math.min(left, right)).toBe(0);
  });

  it('bridges islands that run along a wall in the middle of the stretch nearest it, the same way for each', () => {
    // Three windows, each with a 4 x 1 mm bar 0.3 mm under its top wall, the bars at different
    // offsets along the strip: each bridge must land on its bar's middle, not at a corner.
    const r = metalStrip(30, 8);
    const bars = [2.1, 11.37, 20.6];
    for (const x of bars) {
      rect(r, x - 1, 1, 8, 6, 0);
      rect(r, x, 1.3, 4, 1, 1);
    }
    const out = leavesInputAlone(r, frame);
    expect(codes(out.warnings)).toEqual(['ISLAND_BRIDGED']);
    expect(pieces(out.raster)).toBe(1);
    // The bridge is the metal added in the 0.3 mm gap over each bar: its middle is the bar's.
    const gapRow = Math.floor(1.15 / 0.05);
    const middles = bars.map((x) => {
      const added: number[] = [];
      for (let px = Math.round((x - 1) / 0.05); px < Math.round((x + 7) / 0.05); px++) {
        if (out.raster.data[gapRow * out.raster.w + px]) added.push((px + 0.5) * 0.05);
      }
      expect(added.length * 0.05, `bridge at ${x}`).toBeGreaterThanOrEqual(0.6);
      return added.reduce((a, b) => a + b, 0) / added.length - x;
    });
    for (const m of middles) expect(m).toBeCloseTo(2, 0);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThanOrEqual(0.1);
  });

  it('holds an island by the island beside it when that is its nearest metal, across the gap drawn between them', () => {
    // Three 4 x 4 mm islands in a row in a window 13.6 x 6 mm: the outer two 0.4 mm from the
    // window's side walls, the middle one 0.4 mm from each of them and 1 mm from the top and bottom
    // walls. The middle one's bar crosses a 0.4 mm gap to an island, not 1 mm to the window.
    const r = metalStrip(24, 10);
    rect(r, 5, 2, 13.6, 6, 0);
    for (const x of [5.4, 9.8, 14.2]) rect(r, x, 3, 4, 4, 1);
    const out = leavesInputAlone(r, frame);
    expect(codes(out.warnings)).toEqual(['ISLAND_BRIDGED']);
    expect(findingsOf(out.warnings)[0]!.facts).toMatchObject({ count: 3 });
    expect(pieces(out.raster)).toBe(1);
    const added = (x0: number, x1: number, y0: number, y1: number) => {
      let n = 0;
      for (let y = Math.round(y0 / 0.05); y < Math.round(y1 / 0.05); y++) {
        for (let x = Math.round(x0 / 0.05); x < Math.round(x1 / 0.05); x++) n += out.raster.data[y * out.raster.w + x]!;
      }
      return n;
    };
    // Nothing across the middle island's 1 mm gaps to the top and bottom walls.
    expect(added(9.9, 13.7, 2.05, 2.95) + added(9.9, 13.7, 7.05, 7.95)).toBe(0);
    // A bar across one of the 0.4 mm gaps beside it.
    expect(added(9.45, 9.75, 3, 7) + added(13.85, 14.15, 3, 7)).toBeGreaterThan(0);
  });

  it('widens a bar under the floor and shaves a hairline spur, and hands on its survey of the openings', async () => {
    const out = leavesInputAlone(thinMetal(), frame);
    expect(codes(out.warnings)).toEqual(['SPURS_SHAVED']);
    expect(out.errors).toEqual([]);
    expect(out.thickened).toHaveLength(1);
    expect(out.thickened[0]!.x).toBeCloseTo(4.2, 0);
    // The bar is widened towards the 0.7 mm target: at its middle row, metal from 4.0 mm or so to 4.4 or so.
    const row = 60 * out.raster.w;
    let bar = 0;
    for (let x = 60; x < 108; x++) bar += out.raster.data[row + x]!;
    expect(bar * 0.05).toBeGreaterThanOrEqual(0.65);
    expect(out.measured.openings).not.toBe('unsurveyed');
    await expectGoldenRaster(STAGE, 'thin-metal', out.raster);
    await expectGoldenJson(STAGE, 'thin-metal', summary(out), 1e-6);
  });

  it('trims the hairline end of a point too long to keep where widening it would close the opening around it', () => {
    // A 16° point 0.7 mm across at a wall, 2.5 mm long: the floor's disc stops 1.86 mm short of its
    // end, past the 1 mm a tip may reach. It lies in an opening that follows it 0.22 mm away all
    // round, which widening the point would close.
    const half = (8 * Math.PI) / 180;
    const [gap, base] = [0.22, 0.7];
    const length = base / 2 / Math.tan(half);
    const input = metalStrip(12, 6);
    wedge(input, 4, 3, base + (2 * gap) / Math.cos(half), length + gap / Math.sin(half), 90, 0);
    wedge(input, 4, 3, base, length, 90, 1);
    const cut = (r: StripRaster) => traceFinalCuts(r, { lengthMm: 12, widthMm: 6 }, finalCutOptions, ctx);
    expect(codes(cut(input).errors), 'the point as drawn is refused by the final check').toEqual(['NECK_TOO_THIN']);

    const out = leavesInputAlone(input, frame);
    expect(out.errors).toEqual([]);
    expect(out.thickened).toEqual([]);
    expect(codes(out.warnings)).toEqual(['SPURS_SHAVED']);
    const named = findingsOf(out.warnings)[0]!.locations![0]!;
    expect(Math.abs(named.x - (4 + length))).toBeLessThanOrEqual(named.r);
    // Only metal at the point's end went: nothing added, nothing taken farther from its end than the
    // 0.96 mm it reaches beyond the allowance less two pixels (0.9 mm), where the trim cuts it.
    const changed: number[] = [];
    for (let i = 0; i < input.data.length; i++) {
      expect(out.raster.data[i]! <= input.data[i]!).toBe(true);
      if (out.raster.data[i] !== input.data[i]) changed.push(((i % input.w) + 0.5) * MM_PER_PX);
    }
    expect(changed.length).toBeGreaterThan(0);
    expect(Math.min(...changed)).toBeGreaterThan(4 + length - 1.05);
    // The final check of the cutting file, which measures the point on its own, passes what is left.
    expect(cut(out.raster).errors).toEqual([]);
  });

  it('returns its input itself, unsurveyed, when there is nothing to frame', () => {
    const input = disc(metalStrip(10, 4), 5, 2, 1, 0);
    const out = leavesInputAlone(input, frame);
    expect(out.raster).toBe(input);
    expect(out).toMatchObject({ warnings: [], errors: [], thickened: [] });
    expect(out.measured).toEqual({ thinMetal: 'settled', openings: 'unsurveyed' });
  });

  it('takes the air labels of the filled strip as they were before the fill', () => {
    const filled = fillUncuttableOpenings(thinMetal(), fillOptions, ctx);
    const withLabels = frameStrip(filled.raster, frameOptions, ctx, filled.air);
    const without = frameStrip(filled.raster, frameOptions, ctx);
    expect(withLabels.raster.data).toEqual(without.raster.data);
    expect(findingsOf(withLabels.warnings)).toEqual(findingsOf(without.warnings));
  });
});

function summary(out: ReturnType<typeof frameStrip>) {
  const openings = out.measured.openings;
  return {
    warnings: findingsOf(out.warnings),
    errors: findingsOf(out.errors),
    thickened: out.thickened,
    measured: {
      thinMetal: out.measured.thinMetal,
      openings: openings === 'unsurveyed' ? openings : { verdict: openings.verdict, pinches: openings.pinches.length },
    },
  };
}
