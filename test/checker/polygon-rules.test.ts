import { describe, expect, it } from 'vitest';
import { checkCutSvg } from '../helpers/cut-check/index.ts';
import { checkPolygons } from '../helpers/cut-check/polygon-rules.ts';
import { parseCutSvg } from '../helpers/cut-check/svg-format.ts';
import { cuttingSvg, disc, rect, RULES, type Cut } from '../helpers/cut-check/test-shapes.ts';

/** The polygon problems of a 20 × 8 mm strip with these cuts. */
function problemsOf(cuts: Array<Cut | string>, length = 20, width = 8) {
  const file = parseCutSvg(cuttingSvg(length, width, cuts));
  expect(file.problems).toEqual([]);
  return checkPolygons(file.paths, file.lengthU, file.widthU);
}

describe('simple-polygon rules', () => {
  it('passes separate rings, holes inside their outline and rings touching the strip edge', () => {
    const result = problemsOf([
      [disc(5, 4, 1)],
      [rect(8, 2, 4, 4), rect(9, 3, 1, 1)],
      [rect(0, 0, 2, 8)],
      [rect(18, 6, 2, 2)],
    ]);
    expect(result).toEqual({ problems: [], count: 0 });
  });

  it('reports a bow-tie whose first and last segments cross, at the crossing', () => {
    const result = problemsOf(['M10.000 2.000L12.000 2.000L10.000 4.000L12.000 4.000Z']);
    expect(result.problems).toEqual([{ kind: 'self-intersection', x: 11, y: 3 }]);
  });

  it('reports a zero-length segment, also one closing the ring onto its first point', () => {
    expect(problemsOf(['M10.000 2.000L12.000 2.000L12.000 2.000L12.000 4.000L10.000 4.000Z']).problems).toEqual([
      { kind: 'zero-length-segment', x: 12, y: 2 },
    ]);
    expect(problemsOf(['M10.000 2.000L12.000 2.000L12.000 4.000L10.000 2.000Z']).problems).toEqual([
      { kind: 'zero-length-segment', x: 10, y: 2 },
    ]);
  });

  it('reports a segment folding back along the one before', () => {
    const result = problemsOf(['M10.000 2.000L13.000 2.000L12.000 2.000L12.000 4.000L10.000 4.000Z']);
    expect(result.problems).toContainEqual({ kind: 'back-tracking', x: 13, y: 2 });
  });

  it('reports a ring touching itself at a vertex (a figure eight)', () => {
    const result = problemsOf(['M10.000 2.000L12.000 4.000L14.000 2.000L14.000 6.000L12.000 4.000L10.000 6.000Z']);
    expect(result.problems).toEqual([{ kind: 'self-intersection', x: 12, y: 4 }]);
  });

  it('reports two rings touching (corner on edge) and two rings crossing, at the place', () => {
    expect(problemsOf([[rect(4, 2, 2, 2)], [rect(6, 3, 2, 2)]]).problems).toEqual([
      { kind: 'rings-touch', x: 6, y: 3 },
      { kind: 'rings-touch', x: 6, y: 4 },
    ]);
    const crossing = problemsOf([[rect(4, 2, 2, 2)], [rect(5, 3, 2, 2)]]).problems;
    expect(crossing).toEqual(
      expect.arrayContaining([
        { kind: 'rings-cross', x: 6, y: 3 },
        { kind: 'rings-cross', x: 5, y: 4 },
      ]),
    );
    // A hole touching the outline of its own cut counts too.
    expect(problemsOf([[rect(4, 2, 4, 4), rect(4, 3, 1, 1)]]).problems[0]).toMatchObject({ kind: 'rings-touch', x: 4 });
  });

  it('reports points beyond the strip', () => {
    const result = problemsOf(['M19.000 2.000L20.500 2.000L19.000 3.000Z']);
    expect(result.problems).toEqual([{ kind: 'out-of-bounds', x: 20.5, y: 2 }]);
  });

  it('fails the file through checkCutSvg and counts every problem while listing at most maxPlaces', () => {
    const bowTies = Array.from({ length: 30 }, (_, i) => {
      const x = (1 + i * 0.6).toFixed(3);
      const x2 = (1.4 + i * 0.6).toFixed(3);
      return `M${x} 2.000L${x2} 2.000L${x} 2.400L${x2} 2.400Z`;
    });
    const report = checkCutSvg(cuttingSvg(20, 8, bowTies), RULES, { maxPlaces: 10 });
    expect(report.ok).toBe(false);
    expect(report.polygonProblemCount).toBe(30);
    expect(report.polygonProblems).toHaveLength(10);
  });

  it('checks 30,000 segments in well under a second', () => {
    // 300 rings of 100 segments each on a 165 × 35 mm lace.
    const cuts = Array.from({ length: 300 }, (_, i): Cut => [
      disc(2 + (i % 50) * 3.2, 3 + Math.floor(i / 50) * 5.5, 1.2, 100),
    ]);
    const file = parseCutSvg(cuttingSvg(165, 35, cuts));
    const started = performance.now();
    const result = checkPolygons(file.paths, file.lengthU, file.widthU);
    const elapsed = performance.now() - started;
    expect(result.count).toBe(0);
    expect(elapsed).toBeLessThan(1000);
  });
});
