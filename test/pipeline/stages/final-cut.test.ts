import { describe, expect, it } from 'vitest';
import { refusals, traceFinalCuts } from '../../../core/pipeline/stages/final-cut.ts';
import type { FinalProblems } from '../../../core/pipeline/final-check/check.ts';
import { findingFacts } from '../../../core/pipeline/findings/wording.ts';
import { UNITS_PER_MM, type FinalCut } from '../../../core/pipeline/final-check/rings.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { expectGoldenJson } from '../../helpers/golden.ts';
import { codes, ctx, disc, finalCutOptions, findingsOf, leavesInputAlone, metalStrip, rect, wedge } from './draw.ts';

const STAGE = 'final-cut';
const finalCut = (raster: StripRaster) =>
  traceFinalCuts(
    raster,
    { lengthMm: raster.w * raster.mmPerPxX, widthMm: raster.h * raster.mmPerPxY },
    finalCutOptions,
    ctx,
  );
/** Traced geometry may move by a few micrometres when the tracer changes: compared within 0.005 mm. */
const GEOMETRY_MM = 0.005;

/** The cuts in millimetres, for the golden file (the file itself holds the same numbers as text). */
const inMm = (cuts: readonly FinalCut[]) =>
  cuts.map((cut) => ({
    outer: Array.from(cut.outer, (v) => v / UNITS_PER_MM),
    holes: cut.holes.map((ring) => Array.from(ring, (v) => v / UNITS_PER_MM)),
  }));

describe('the final cut (final-cut.ts)', () => {
  it('traces a clean strip into cuts that pass the final check, with its margins', async () => {
    const input = rect(disc(disc(metalStrip(10, 4), 2, 2, 0.75, 0), 5, 2, 0.5, 0), 7, 1.5, 2, 1, 0);
    const out = leavesInputAlone(input, finalCut);
    expect(out.errors).toEqual([]);
    expect(out.thickened).toEqual([]);
    expect(out.cuts).toHaveLength(3);
    expect(out.margins.narrowestMetal!.widthMm).toBeGreaterThanOrEqual(0.6);
    await expectGoldenJson(STAGE, 'holes', { cuts: inMm(out.cuts), margins: out.margins }, GEOMETRY_MM);
  });

  it('widens metal under the floor on a copy of the strip and traces it again', async () => {
    // Two round holes 2 mm across, 0.55 mm apart: the web between them is under 0.6 mm on the traced file.
    const input = disc(disc(metalStrip(10, 4), 3, 2, 1, 0), 5.55, 2, 1, 0);
    const out = leavesInputAlone(input, finalCut);
    expect(out.errors).toEqual([]);
    expect(out.thickened.length).toBeGreaterThan(0);
    expect(out.margins.narrowestMetal!.widthMm).toBeGreaterThanOrEqual(0.6);
    await expectGoldenJson(
      STAGE,
      'widened-web',
      { cuts: inMm(out.cuts), thickened: out.thickened, margins: out.margins },
      GEOMETRY_MM,
    );
  });

  it('fills the point of an opening that tapers gently past the floor, and refuses a narrow arm', () => {
    // From a window's top wall, a wedge of air 0.45 mm across and 3 mm long (under 0.2 mm for its
    // last 1.33 mm: a point) and a slot 0.15 mm wide and 3 mm long (a narrow arm drawn so).
    const window = rect(metalStrip(20, 10), 2, 5, 16, 3, 0);
    const pointed = wedge(window, 6, 5.05, 0.45, 3, 0, 0);
    const out = leavesInputAlone(pointed, finalCut);
    expect(out.errors).toEqual([]);
    expect(out.filledPoints).toHaveLength(1);
    expect(Math.abs(out.filledPoints[0]!.x - 6)).toBeLessThan(0.3);
    expect(out.filledPoints[0]!.y).toBeLessThan(3.7);
    const arm = rect(rect(metalStrip(20, 10), 2, 5, 16, 3, 0), 11.925, 2, 0.15, 3.05, 0);
    const refused = finalCut(arm);
    expect(codes(refused.errors)).toEqual(['OPENING_TOO_SMALL']);
    expect(refused.filledPoints).toEqual([]);
  });

  it('widens a straight-sided wedge under the floor for millimetres, and leaves a short one as a tip', async () => {
    // In a window 16 x 10 mm, wedges standing from its floor: 2 mm across, 8 mm long and turned 7°
    // (under 0.6 mm for its last 2.4 mm; traced with straight sides to a point, it passed the check
    // as a tip), and 1.2 mm across, 1.6 mm long (under 0.6 mm for its last 0.8 mm: a tip).
    const window = rect(metalStrip(20, 12), 2, 1, 16, 10, 0);
    const input = wedge(wedge(window, 7.5, 11.1, 2, 8, 7, 1), 14, 11.1, 1.2, 1.6, 0, 1);
    const out = leavesInputAlone(input, (r) => traceFinalCuts(r, { lengthMm: 20, widthMm: 12 }, finalCutOptions, ctx));
    expect(out.errors).toEqual([]);
    expect(out.thickened.length).toBeGreaterThan(0);
    const point = { x: 7.5 + 8 * Math.sin((7 * Math.PI) / 180), y: 11.1 - 8 * Math.cos((7 * Math.PI) / 180) };
    for (const at of out.thickened) expect(Math.hypot(at.x - point.x, at.y - point.y)).toBeLessThan(2.5);
    expect(out.margins.narrowestMetal!.widthMm).toBeGreaterThanOrEqual(0.6);
    await expectGoldenJson(
      STAGE,
      'widened-wedge',
      { cuts: inMm(out.cuts), thickened: out.thickened, margins: out.margins },
      GEOMETRY_MM,
    );
  });

  it('refuses an opening under the floor and returns no cuts', async () => {
    const input = rect(metalStrip(10, 4), 3, 1, 4, 0.15, 0);
    const out = leavesInputAlone(input, finalCut);
    expect(codes(out.errors)).toEqual(['OPENING_TOO_SMALL']);
    expect(out.cuts).toEqual([]);
    await expectGoldenJson(STAGE, 'narrow-slot', { errors: findingsOf(out.errors), margins: out.margins }, GEOMETRY_MM);
  });

  it("names contours that cross and cannot be mended as the tracing's fault, once a place", () => {
    const crossing = (x: number, y: number) => ({ kind: 'self-crossing' as const, x, y, ring: 0, other: 0 });
    const problems: FinalProblems = {
      thinMetal: [],
      narrowOpenings: [],
      pieces: 1,
      islands: [],
      detached: [],
      // A bow-tie's three crossings micrometres apart, and one more 2 mm away.
      notSimple: [crossing(5000, 2000), crossing(5002, 2001), crossing(5004, 2000), crossing(7000, 2000)],
      narrowest: {},
    };
    const [refusal, ...rest] = refusals(problems, finalCutOptions, ctx);
    expect(rest).toEqual([]);
    expect(refusal!.code).toBe('TRACE_REJECTED');
    expect(refusal!.locations).toEqual([
      { x: 5, y: 2, r: 0.2 },
      { x: 7, y: 2, r: 0.2 },
    ]);
    expect(findingFacts(refusal!)).toEqual({ cause: 'crossing', count: 2 });
    // The drawing may pass every floor: it is not told to become what it already is.
    expect(refusal!.agent_instruction).not.toContain('solid black shapes');
  });
});
