import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkCutSvg,
  checkDrawing,
  checkFidelity,
  faithfulness,
  readDrawing,
  type Drawing,
  type ServiceWarning,
} from '../helpers/cut-check/index.ts';
import { cuttingSvg, disc, drawingPng, rect, RULES, type Cut, type Point } from '../helpers/cut-check/test-shapes.ts';

const L = 40;
const W = 10;
const DESPECKLE = { despeckleAreaMm2: 0.25 };
/** Six round openings of 1 mm radius along the strip, and a speck of 0.13 mm² the service fills. */
const HOLES: Cut[] = Array.from({ length: 6 }, (_, i) => [disc(5 + i * 6, 5, 1)]);
const SPECK: Cut = [disc(36, 2, 0.2)];

const fidelityOf = (drawing: Drawing, cuts: Cut[], warnings: ServiceWarning[] = []) =>
  checkFidelity(checkCutSvg(cuttingSvg(L, W, cuts), RULES), drawing, warnings, DESPECKLE);

describe('readDrawing', () => {
  it('frames the piece’s bounding box onto the strip, with pixels of different sides', async () => {
    const png = await drawingPng(L, W, HOLES, { x: 12, y: 9 });
    const drawing = await readDrawing(png, { lengthMm: L, widthMm: W });
    expect(drawing.box).toEqual({ left: 10, top: 10, width: 480, height: 90 });
    expect(drawing.dx).toBeCloseTo(L / 480, 9);
    expect(drawing.dy).toBeCloseTo(W / 90, 9);
    const report = checkDrawing(drawing, RULES);
    expect(report.openings).toHaveLength(6);
    expect(report.openings[2]!.x).toBeCloseTo(17, 1);
    expect(report.openings[2]!.y).toBeCloseTo(5, 1);
    expect(report.openings[2]!.areaMm2).toBeCloseTo(Math.PI, 0);
    // Its own, coarser, tolerance: 1.5 × the larger pixel side.
    expect(report.tolMm).toBeCloseTo(1.5 * (W / 90), 9);
    expect(report).toMatchObject({ pieces: 1, thinMetal: [], narrowOpenings: [] });
  });

  it('keeps metal inside the piece’s holes as islands and drops metal outside its outline', async () => {
    const cornerNotch: Cut = [rect(36, 0, 4, 4)];
    const island: Point[] = disc(10, 5, 0.5);
    const outsideOutline: Point[] = disc(38, 1.5, 0.5); // inside the bounding box, in the notch
    const png = await drawingPng(L, W, [[disc(10, 5, 2)], cornerNotch], 12, [island, outsideOutline]);
    const drawing = await readDrawing(png, { lengthMm: L, widthMm: W });
    expect(drawing.droppedRegions).toBe(1);
    const report = checkDrawing(drawing, RULES);
    expect(report.pieces).toBe(2);
    expect(report.islands).toHaveLength(1);
    expect(report.islands[0]!.x).toBeCloseTo(10, 1);
    expect(report.islands[0]!.areaMm2).toBeCloseTo(Math.PI / 4, 1);
    expect(report.outlineCuts).toBe(1);
  });
});

describe('checkFidelity', () => {
  let drawing: Drawing;
  beforeAll(async () => {
    drawing = await readDrawing(await drawingPng(L, W, [...HOLES, SPECK], 12), { lengthMm: L, widthMm: W });
  });

  it('passes the cut of the drawing, with the speck under the despeckle area filled', () => {
    const report = fidelityOf(drawing, HOLES);
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.openings.map((opening) => opening.fate).sort()).toEqual([
      'filled-small',
      'kept',
      'kept',
      'kept',
      'kept',
      'kept',
      'kept',
    ]);
    const { metal } = report;
    expect(metal.filledMm2).toBeCloseTo(Math.PI * 0.04, 1);
    expect(metal.expectedMm2).toBeCloseTo(metal.drawnMm2 + metal.filledMm2, 9);
    // Edge error = half a drawing pixel + 0.05 mm; boundary = the six circles counted along pixel
    // edges, which makes a circle of radius r as long as its bounding square, 8r (an upper bound).
    expect(metal.edgeErrorMm).toBeCloseTo(1 / 24 + 0.05, 9);
    expect(metal.boundaryLengthMm).toBeCloseTo(6 * 8, 6);
    expect(metal.toleranceMm2).toBeCloseTo(metal.edgeErrorMm * metal.boundaryLengthMm, 9);
    expect(Math.abs(metal.differenceMm2)).toBeLessThan(0.5);
  });

  it('fails a cut missing one opening, located at it, unless an OPENING_REMOVED location names it', () => {
    const missing = fidelityOf(drawing, HOLES.slice(1));
    expect(missing.ok).toBe(false);
    expect(missing.failures).toHaveLength(1);
    expect(missing.failures[0]).toMatchObject({ kind: 'opening-missing' });
    expect(missing.failures[0]!.x).toBeCloseTo(5, 1);
    expect(missing.failures[0]!.y).toBeCloseTo(5, 1);

    const named = fidelityOf(drawing, HOLES.slice(1), [
      { code: 'OPENING_REMOVED', locations: [{ x: 5.3, y: 6.2, r: 0.3 }] },
    ]);
    expect(named.failures).toEqual([]);
    expect(named.openings.filter((opening) => opening.fate === 'excused')).toHaveLength(1);
    // The filled opening now counts as metal the drawing asked for.
    expect(Math.abs(named.metal.differenceMm2)).toBeLessThan(0.5);

    // A location elsewhere, or another code, excuses nothing.
    const elsewhere = fidelityOf(drawing, HOLES.slice(1), [
      { code: 'OPENING_REMOVED', locations: [{ x: 8, y: 5, r: 0.5 }] },
      { code: 'FEATURES_TOO_FINE', locations: [{ x: 5, y: 5, r: 1 }] },
    ]);
    expect(elsewhere.failures.map((failure) => failure.kind)).toEqual(['opening-missing']);
  });

  it('fails a cut that merges two openings, at the merged opening', () => {
    const report = fidelityOf(drawing, [[rect(4, 4, 8, 2)], ...HOLES.slice(2)]);
    const merged = report.failures.filter((failure) => failure.kind === 'openings-merged');
    expect(merged).toHaveLength(1);
    expect(merged[0]!.x).toBeCloseTo(8, 1);
    expect(merged[0]!.y).toBeCloseTo(5, 1);
    expect(merged[0]!.r).toBeCloseTo(3, 1);
    expect(report.ok).toBe(false);
  });

  it('fails a cut with more metal than the tolerance allows, and reports the numbers', () => {
    // Every opening 0.8 mm instead of 1 mm in radius: 6 × 1.13 mm² more metal.
    const report = fidelityOf(
      drawing,
      HOLES.map((_, i) => [disc(5 + i * 6, 5, 0.8)]),
    );
    expect(report.failures.map((failure) => failure.kind)).toEqual(['metal-area']);
    const { metal } = report;
    expect(metal.differenceMm2).toBeGreaterThan(metal.toleranceMm2);
    expect(metal.differenceMm2).toBeCloseTo(6 * Math.PI * (1 - 0.64), 0);
    const failure = report.failures[0]!;
    // Located on one of the rings of extra metal.
    const nearest = Math.min(...HOLES.map((_, i) => Math.hypot(failure.x - (5 + i * 6), failure.y - 5)));
    expect(nearest).toBeLessThan(1.1);
  });

  it('skips an opening within 10 % of the despeckle area whichever way the service went', () => {
    const edgeCase = { despeckleAreaMm2: Math.PI }; // the six openings are 3.11 mm² as drawn
    const cut = (cuts: Cut[]) => checkCutSvg(cuttingSvg(L, W, cuts), RULES);
    const kept = checkFidelity(cut(HOLES), drawing, [], edgeCase);
    expect(kept.openings.filter((opening) => opening.fate === 'ambiguous-kept')).toHaveLength(6);
    const filled = checkFidelity(cut(HOLES.slice(3)), drawing, [], edgeCase);
    expect(filled.openings.filter((opening) => opening.fate === 'ambiguous-filled')).toHaveLength(3);
    expect(filled.failures).toEqual([]);
  });
});

describe('faithfulness: changes no warning names', () => {
  // A 3 mm square window with an arm 0.22 mm wide and 3 mm long out of its right side, drawn at
  // 9 px/mm (the arm two pixels wide), and a triangle opening with a 30° corner.
  const window: Point[] = rect(5, 3.5, 3, 3);
  const arm: Point[] = rect(8, 4.89, 3, 0.22);
  const triangle = (tipX: number): Point[] => [
    [20, 3.5],
    [20, 6.5],
    [tipX, 5],
  ];
  const sharpTipX = 20 + 1.5 / Math.tan((15 * Math.PI) / 180);
  let drawing: Drawing;
  beforeAll(async () => {
    drawing = await readDrawing(await drawingPng(L, W, [[window], [arm], [triangle(sharpTipX)]], 9), {
      lengthMm: L,
      widthMm: W,
    });
  });
  const failuresOf = (cuts: Cut[]) =>
    faithfulness(checkCutSvg(cuttingSvg(L, W, cuts), RULES), drawing, [], RULES, DESPECKLE).failures;

  it('fails a cut that fills a narrow arm of an opening, a pixel or two wide in the drawing, located on it', () => {
    expect(failuresOf([[window], [arm], [triangle(sharpTipX)]])).toEqual([]);
    const filled = failuresOf([[window], [triangle(sharpTipX)]]);
    expect(filled.map((failure) => failure.kind)).toEqual(['unwarned-filled']);
    expect(filled[0]!.x).toBeCloseTo(9.5, 0);
    expect(filled[0]!.y).toBeCloseTo(5, 0);
  });

  it('passes a cut that fills the part of a sharp corner narrower than the opening floor', () => {
    // The 30° corner blunted where it is 0.2 mm wide: 0.37 mm of its point filled.
    expect(failuresOf([[window], [arm], [triangle(sharpTipX - 0.1 / Math.tan((15 * Math.PI) / 180))]])).toEqual([]);
  });
});
