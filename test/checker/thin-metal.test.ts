import { describe, expect, it } from 'vitest';
import { checkCutSvg, type CutReport } from '../helpers/cut-check/index.ts';
import { cuttingSvg, disc, rect, RULES, type Point } from '../helpers/cut-check/test-shapes.ts';

const TOL = 0.03; // 1.5 × 0.02 mm pixels

/** The thin-metal places of a report without the raster, for readable failures. */
const thinOf = (report: CutReport) => report.thinMetal.map(({ kind, x, y, widthMm }) => ({ kind, x, y, widthMm }));

/** A C-shaped opening (ring between radii `outer` and `inner` round (cx, cy)) open to the right by `mouth` mm. */
function cShape(cx: number, cy: number, outer: number, inner: number, mouth: number): Point[] {
  const points: Point[] = [];
  const outerGap = Math.asin(mouth / 2 / outer);
  const innerGap = Math.asin(mouth / 2 / inner);
  for (let i = 0; i <= 72; i++) {
    const a = outerGap + ((2 * Math.PI - 2 * outerGap) * i) / 72;
    points.push([cx + outer * Math.cos(a), cy + outer * Math.sin(a)]);
  }
  for (let i = 0; i <= 72; i++) {
    const a = 2 * Math.PI - innerGap - ((2 * Math.PI - 2 * innerGap) * i) / 72;
    points.push([cx + inner * Math.cos(a), cy + inner * Math.sin(a)]);
  }
  return points;
}

describe('thin metal', () => {
  it('passes a plain 155 × 20 mm strip with 100 round holes', () => {
    const holes = Array.from({ length: 100 }, (_, i) => [disc(2 + (i % 50) * 3.02, i < 50 ? 6 : 14, 1.1)]);
    const report = checkCutSvg(cuttingSvg(155, 20, holes), RULES);
    expect(thinOf(report)).toEqual([]);
    expect(report.narrowOpenings).toEqual([]);
    expect(report).toMatchObject({ ok: true, pieces: 1, outlineCuts: 0, islands: [], detached: [] });
    expect(report.openings).toHaveLength(100);
    expect(report.openings[0]!.x).toBeCloseTo(2, 1);
    expect(report.openings[0]!.y).toBeCloseTo(6, 1);
    // 96-gons of radius 1.1 mm: 100 × 3.7987 mm² of air; pixel sampling errs by well under 0.1 %.
    expect(report.metalAreaMm2).toBeCloseTo(155 * 20 - 379.87, -1);
    expect(report.openAreaPct).toBeCloseTo((100 * 379.87) / 3100, 1);
  });

  it('fails a 0.35 mm web between two round holes, located between them, with its width', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[disc(8, 4, 1.5)], [disc(11.35, 4, 1.5)]]), RULES);
    expect(report.ok).toBe(false);
    const web = report.thinMetal.filter((place) => place.kind === 'between-boundaries');
    expect(web).toHaveLength(1);
    expect(web[0]!.widthMm).toBeGreaterThan(0.35 - TOL);
    expect(web[0]!.widthMm).toBeLessThan(0.35 + TOL);
    expect(web[0]!.x).toBeCloseTo(9.675, 1);
    expect(web[0]!.y).toBeCloseTo(4, 1);
    // Erosion alone would not see it: the metal stays in one piece round the holes.
    expect(report.pieces).toBe(1);
  });

  it('fails a round hole 0.3 mm from the long edge and passes one 0.7 mm from it', () => {
    const near = checkCutSvg(cuttingSvg(20, 8, [[disc(10, 1.3, 1)]]), RULES);
    expect(thinOf(near)).toHaveLength(1);
    expect(near.thinMetal[0]).toMatchObject({ kind: 'between-boundaries' });
    expect(near.thinMetal[0]!.x).toBeCloseTo(10, 1);
    expect(near.thinMetal[0]!.y).toBeCloseTo(0.15, 1);
    expect(Math.abs(near.thinMetal[0]!.widthMm - 0.3)).toBeLessThan(TOL);

    const far = checkCutSvg(cuttingSvg(20, 8, [[disc(10, 1.7, 1)]]), RULES);
    expect(thinOf(far)).toEqual([]);
    expect(far.ok).toBe(true);
  });

  it('fails a 0.25 mm bar between two large rectangular openings and passes a 0.6 mm bar', () => {
    const thin = checkCutSvg(cuttingSvg(20, 8, [[rect(4, 2, 5, 4)], [rect(9.25, 2, 5, 4)]]), RULES);
    const kinds = new Set(thin.thinMetal.map((place) => place.kind));
    expect(kinds).toEqual(new Set(['between-boundaries', 'thin-part']));
    for (const place of thin.thinMetal) {
      expect(place.x).toBeCloseTo(9.125, 1);
      expect(place.y).toBeGreaterThanOrEqual(2);
      expect(place.y).toBeLessThanOrEqual(6);
      expect(Math.abs(place.widthMm - 0.25)).toBeLessThan(TOL);
    }
    // The bar is 4 mm long: its middle lies 2 mm from the metal the opening keeps.
    expect(thin.thinMetal.find((place) => place.kind === 'thin-part')!.reachMm).toBeCloseTo(2, 0);

    const wide = checkCutSvg(cuttingSvg(20, 8, [[rect(4, 2, 5, 4)], [rect(9.6, 2, 5, 4)]]), RULES);
    expect(thinOf(wide)).toEqual([]);
    expect(wide.ok).toBe(true);
  });

  it('fails a 0.3 mm spur 2 mm long sticking into an opening, at its tip', () => {
    const withSpur: Point[] = [
      [5, 2],
      [12, 2],
      [12, 6],
      [5, 6],
      [5, 4.15],
      [7, 4.15],
      [7, 3.85],
      [5, 3.85],
    ];
    const report = checkCutSvg(cuttingSvg(20, 8, [[withSpur]]), RULES);
    expect(thinOf(report)).toHaveLength(1);
    const spur = report.thinMetal[0]!;
    expect(spur.kind).toBe('thin-part');
    expect(spur.x).toBeCloseTo(7, 1);
    expect(spur.y).toBeCloseTo(4, 0);
    expect(Math.abs(spur.widthMm - 0.3)).toBeLessThan(TOL);
    expect(spur.reachMm).toBeGreaterThan(1.5);
  });

  it('measures a tongue of metal between two slots through itself, not across a slot to the metal beside it', () => {
    // A tongue 0.45 mm wide inside a U-shaped opening 0.3 mm wide: across either slot the wide
    // metal is within a tip's reach, along the tongue it is not.
    const tongue = (length: number): Point[] => [
      [5, 3.475],
      [5 + length + 0.3, 3.475],
      [5 + length + 0.3, 4.525],
      [5, 4.525],
      [5, 4.225],
      [5 + length, 4.225],
      [5 + length, 3.775],
      [5, 3.775],
    ];
    const long = checkCutSvg(cuttingSvg(20, 8, [[tongue(2)]]), RULES);
    expect(thinOf(long)).toHaveLength(1);
    const thin = long.thinMetal[0]!;
    expect(thin.kind).toBe('thin-part');
    expect(thin.x).toBeGreaterThan(6);
    expect(thin.y).toBeCloseTo(4, 0);
    expect(Math.abs(thin.widthMm - 0.45)).toBeLessThan(TOL);
    expect(thin.reachMm).toBeGreaterThan(1.2);
    // The same tongue 0.5 mm long is a tip.
    expect(thinOf(checkCutSvg(cuttingSvg(20, 8, [[tongue(0.5)]]), RULES))).toEqual([]);
  });

  it('passes a pointed end of 30° and the strip’s square corners, and fails a sharper point', () => {
    const pointedEnd = (degrees: number): Point[] => {
      const base = 20 - 0.1 - 4 / Math.tan((degrees / 2) * (Math.PI / 180));
      return [
        [base, 0],
        [20, 0],
        [20, 8],
        [base, 8],
        [19.9, 4],
      ];
    };
    const thirty = checkCutSvg(cuttingSvg(20, 8, [[pointedEnd(30)]]), RULES);
    expect(thinOf(thirty)).toEqual([]);
    expect(thirty.ok).toBe(true);
    expect(thirty.outlineCuts).toBe(1);
    // Its tip reaches r·(1/sin 15° − 1) ≈ 0.82 mm beyond the opening (r = 0.285 mm): under 1 mm.
    const twenty = checkCutSvg(cuttingSvg(20, 8, [[pointedEnd(20)]]), RULES);
    expect(thinOf(twenty)).toHaveLength(1);
    expect(twenty.thinMetal[0]).toMatchObject({ kind: 'thin-part' });
    expect(twenty.thinMetal[0]!.x).toBeCloseTo(19.85, 1);
    expect(twenty.thinMetal[0]!.y).toBeCloseTo(4, 1);
  });

  it('fails the 0.3 mm mouth of a C-shaped opening as a neck, at the mouth', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[cShape(10, 4, 3, 2, 0.3)]]), RULES);
    const necks = report.thinMetal.filter((place) => place.kind === 'neck');
    expect(necks).toHaveLength(1);
    expect(necks[0]!.x).toBeCloseTo(12.5, 0);
    expect(necks[0]!.y).toBeCloseTo(4, 1);
    expect(Math.abs(necks[0]!.widthMm - 0.3)).toBeLessThan(TOL);
    expect(report.openings).toHaveLength(1);
  });

  it('finds no neck where the metal widens steadily past the floor, at any sub-pixel offset', () => {
    // An opening hooked round the square corner of a bridged island (from a generated design):
    // inside the hook the metal widens from the corner on, past 0.7 mm, with no narrowing. Along
    // the hook's slanted walls the raster's half-widths wobble by up to half a pixel, which at one
    // offset cut off a core a pixel across and reported a "neck" of 0.52 mm.
    const hook: Point[] = [
      [1.403, 3.118],
      [1.565, 3.069],
      [1.852, 3.046],
      [2.181, 3.043],
      [2.47, 3.061],
      [2.643, 3.098],
      [2.686, 3.282],
      [2.701, 3.646],
      [2.7, 3.726],
      [2.701, 3.799],
      [2.691, 4.124],
      [2.653, 4.307],
      [2.569, 4.385],
      [2.423, 4.392],
      [2.391, 4.387],
      [2.225, 4.371],
      [2.209, 4.228],
      [2.201, 4.201],
      [2.233, 4.031],
      [2.246, 4.03],
      [2.285, 3.925],
      [2.301, 3.762],
      [2.3, 3.737],
      [2.3, 3.497],
      [2.053, 3.497],
      [2.009, 3.495],
      [1.825, 3.519],
      [1.69, 3.6],
      [1.668, 3.624],
      [1.637, 3.656],
      [1.491, 3.745],
      [1.402, 3.696],
      [1.36, 3.505],
      [1.36, 3.455],
      [1.357, 3.425],
      [1.364, 3.24],
    ];
    for (let a = 0; a < 10; a++) {
      for (let b = 0; b < 10; b++) {
        const shifted = hook.map(([x, y]): Point => [x + a * 0.002, y + b * 0.002]);
        expect(thinOf(checkCutSvg(cuttingSvg(6, 7, [[shifted]]), RULES)), `offset ${a}, ${b}`).toEqual([]);
      }
    }
  });

  it('measures on pixels of different sides when the strip is no whole number of pixels', () => {
    // 20.01 / round(20.01 / 0.02) ≠ 8.013 / round(8.013 / 0.02): the web is still found and measured.
    const report = checkCutSvg(cuttingSvg(20.01, 8.013, [[disc(8, 4, 1.5)], [disc(11.35, 4, 1.5)]]), RULES);
    expect(report.resolution.dx).not.toBe(report.resolution.dy);
    const web = report.thinMetal.filter((place) => place.kind === 'between-boundaries');
    expect(web).toHaveLength(1);
    expect(Math.abs(web[0]!.widthMm - 0.35)).toBeLessThan(TOL);
  });

  it('measures at 0.01 mm pixels with the finer tolerance that goes with them', () => {
    const report = checkCutSvg(cuttingSvg(20, 8, [[disc(8, 4, 1.5)], [disc(11.56, 4, 1.5)]]), RULES, {
      resolutionMm: 0.01,
    });
    expect(report.resolution).toEqual({ dx: 0.01, dy: 0.01 });
    expect(report.tolMm).toBeCloseTo(0.015, 9);
    // 0.56 mm lies in the blind band of 0.02 mm pixels (0.55–0.59 mm) and under the one of 0.01 mm
    // pixels (0.575–0.595 mm): always flagged here.
    const web = report.thinMetal.filter((place) => place.kind === 'between-boundaries');
    expect(web).toHaveLength(1);
    expect(Math.abs(web[0]!.widthMm - 0.56)).toBeLessThan(0.01 + 0.003);
  });
});
