import { describe, expect, it } from 'vitest';
import { checkCutSvg, type CutReport } from '../helpers/cut-check/index.ts';
import { joinCornerPixels } from '../helpers/cut-check/labels.ts';
import { cuttingSvg, rect, RULES, type Point } from '../helpers/cut-check/test-shapes.ts';

const TOL = 0.03;
const narrowOf = (report: CutReport) =>
  report.narrowOpenings.map(({ kind, x, y, widthMm }) => ({ kind, x, y, widthMm }));

describe('narrow openings', () => {
  it('fails a slot 0.15 mm wide as narrow everywhere, inside the slot', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[rect(8, 3.925, 4, 0.15)]]), RULES);
    expect(narrowOf(report)).toHaveLength(1);
    const slot = report.narrowOpenings[0]!;
    expect(slot.kind).toBe('narrow-everywhere');
    expect(slot.x).toBeGreaterThan(8);
    expect(slot.x).toBeLessThan(12);
    expect(slot.y).toBeCloseTo(4, 1);
    expect(Math.abs(slot.widthMm - 0.15)).toBeLessThan(TOL);
    expect(report.ok).toBe(false);
  });

  it('passes a 67° corner whose apex pixel touches the rest of the cut only at a pixel corner', () => {
    // The apex of a traced star point, as a shipped file held it: sampled at 0.02 mm, the apex's
    // pixel lies diagonal to the next row's air. It is the corner of one cut, not an opening.
    const corner: Point[] = [
      [1.919, 0.724],
      [1.888, 0.608],
      [2.132, 0.64],
      [2.6, 0.9],
      [2.4, 1.6],
      [1.976, 0.96],
    ];
    const report = checkCutSvg(cuttingSvg(4, 3, [[corner]]), RULES);
    expect({ narrow: narrowOf(report), thin: report.thinMetal, openings: report.openings.length }).toEqual({
      narrow: [],
      thin: [],
      openings: 1,
    });
    expect(report.ok).toBe(true);
  });

  it('passes a slot 0.3 mm wide', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[rect(8, 3.85, 4, 0.3)]]), RULES);
    expect(narrowOf(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('fails a 0.3 mm slot pinched to 0.1 mm, at the pinch', () => {
    const pinched: Point[] = [
      [8, 3.85],
      [9.9, 3.85],
      [10, 4.05],
      [10.1, 3.85],
      [12, 3.85],
      [12, 4.15],
      [8, 4.15],
    ];
    const report = checkCutSvg(cuttingSvg(20, 8, [[pinched]]), RULES);
    const pinches = report.narrowOpenings.filter((place) => place.kind === 'pinched');
    expect(pinches).toHaveLength(1);
    // Within a pixel or two of the tip of the V that pinches it.
    expect(Math.abs(pinches[0]!.x - 10)).toBeLessThan(0.08);
    expect(Math.abs(pinches[0]!.y - 4.1)).toBeLessThan(0.08);
    expect(Math.abs(pinches[0]!.widthMm - 0.1)).toBeLessThan(TOL);
  });

  it('fails an opening with a narrow arm 0.1 mm wide and 1 mm long, at the arm’s end', () => {
    const withArm: Point[] = [
      [8, 3],
      [10, 3],
      [10, 3.95],
      [11, 3.95],
      [11, 4.05],
      [10, 4.05],
      [10, 5],
      [8, 5],
    ];
    const report = checkCutSvg(cuttingSvg(20, 8, [[withArm]]), RULES);
    expect(narrowOf(report)).toHaveLength(1);
    expect(report.narrowOpenings[0]).toMatchObject({ kind: 'narrow-arm' });
    expect(report.narrowOpenings[0]!.x).toBeCloseTo(11, 1);
    expect(report.narrowOpenings[0]!.y).toBeCloseTo(4, 1);
    expect(report.narrowOpenings[0]!.reachMm).toBeGreaterThan(0.8);
  });

  it('fails a narrow slit cut in from the strip’s edge and passes a wide notch', () => {
    const slit = checkCutSvg(cuttingSvg(20, 8, [[rect(10, 0, 0.1, 2)]]), RULES);
    expect(slit.outlineCuts).toBe(1);
    expect(slit.openings).toEqual([]);
    expect(narrowOf(slit)).toHaveLength(1);
    expect(slit.narrowOpenings[0]).toMatchObject({ kind: 'narrow-arm' });
    expect(slit.narrowOpenings[0]!.x).toBeCloseTo(10.05, 1);
    expect(slit.narrowOpenings[0]!.y).toBeGreaterThan(1.5);

    const notch = checkCutSvg(cuttingSvg(20, 8, [[rect(10, 0, 1, 2)]]), RULES);
    expect(narrowOf(notch)).toEqual([]);
    expect(notch.ok).toBe(true);
    expect(notch.outlineCuts).toBe(1);
  });
});

describe('pieces', () => {
  it('reports an island of metal inside an opening', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[rect(6, 2, 8, 4), rect(9, 3, 2, 2)]]), RULES);
    expect(report.ok).toBe(false);
    expect(report.pieces).toBe(2);
    expect(report.detached).toEqual([]);
    expect(report.islands).toHaveLength(1);
    expect(report.islands[0]!.x).toBeCloseTo(10, 2);
    expect(report.islands[0]!.y).toBeCloseTo(4, 2);
    expect(report.islands[0]!.areaMm2).toBeCloseTo(4, 1);
    expect(report.openings).toHaveLength(1);
    expect(report.openings[0]!.areaMm2).toBeCloseTo(28, 1);
  });

  it('reports the far side of a cut across the strip as detached', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[rect(14, 0, 1, 8)]]), RULES);
    expect(report.ok).toBe(false);
    expect(report.pieces).toBe(2);
    expect(report.islands).toEqual([]);
    expect(report.detached).toHaveLength(1);
    expect(report.detached[0]!.x).toBeCloseTo(17.5, 2);
    expect(report.detached[0]!.areaMm2).toBeCloseTo(40, 1);
    expect(report.outlineCuts).toBe(1);
    expect(report.metalAreaMm2).toBeCloseTo(152, 1);
  });
});

describe('pixels at a sharp corner (joinCornerPixels)', () => {
  it('joins a component of one or two pixels touching a larger one at a corner only, never the outside, never a larger one', () => {
    // 5 x 4 labels: a piece (1), a one-pixel speck (2) diagonal to it, three pixels (3) diagonal to it
    // too, and one pixel of the outside (0) in a corner.
    const labels = Int32Array.from([-1, -1, 1, 1, -1, -1, -1, 1, 1, -1, -1, 2, -1, -1, 3, 0, -1, -1, 3, 3]);
    const joined = joinCornerPixels(labels, 4, 5);
    expect(joined.count).toBe(3);
    expect(joined.labels[11]).toBe(joined.labels[7]);
    expect(joined.labels[15]).toBe(0);
    expect(joined.labels[14]).not.toBe(joined.labels[7]);
  });
});
