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

  it('reports a fold: a short step back against both neighbours, turning one way onto it and the other way off', () => {
    // Along the top edge: to 11.000, back 0.010 to 10.990, then on to 12.000 (a Z that crosses nothing).
    const result = problemsOf(['M10.000 2.000L11.000 2.000L10.990 2.005L12.000 2.010L12.000 4.000L10.000 4.000Z']);
    expect(result.problems).toEqual([{ kind: 'fold', x: 10.995, y: 2.0025 }]);
    // The same step back turned the other way round (the ring reversed) is the same fold.
    const reversed = problemsOf(['M10.000 4.000L12.000 4.000L12.000 2.010L10.990 2.005L11.000 2.000L10.000 2.000Z']);
    expect(reversed.problems).toEqual([{ kind: 'fold', x: 10.995, y: 2.0025 }]);
  });

  it('reports a fold at the last segment of a ring, closing onto its first point', () => {
    const result = problemsOf(['M10.990 2.005L12.000 2.010L12.000 4.000L10.000 4.000L10.000 2.000L11.000 2.000Z']);
    expect(result.problems).toEqual([{ kind: 'fold', x: 10.995, y: 2.0025 }]);
  });

  it('takes no sharp tip for a fold: a star point, a tip cut square or rounded in a few short steps', () => {
    // A five-pointed star of 10° points: each point reverses the contour once.
    const star = Array.from({ length: 10 }, (_, i): [number, number] => {
      const a = (Math.PI * i) / 5 - Math.PI / 2;
      const r = i % 2 === 0 ? 3 : 0.27;
      return [10 + r * Math.cos(a), 4 + r * Math.sin(a)];
    });
    expect(problemsOf([[star]]).problems).toEqual([]);
    // A 10° wedge whose point is cut off by a 0.02 mm end, or rounded in three 0.01 mm steps that
    // turn the same way: both turn through less than a right angle at every vertex, or reverse at one.
    const square = 'M4.000 3.000L14.000 3.990L14.000 4.010L4.000 5.000Z';
    const rounded = 'M4.000 3.000L14.000 3.990L14.008 3.996L14.008 4.004L14.000 4.010L4.000 5.000Z';
    const needle = 'M4.000 3.000L14.000 4.000L13.990 4.001L4.000 5.000Z';
    for (const tip of [square, rounded, needle]) expect(problemsOf([tip]).problems, tip).toEqual([]);
  });

  it('takes a step back of 0.05 mm or more for a drawn edge, not a fold', () => {
    const result = problemsOf(['M10.000 2.000L11.000 2.000L10.950 2.005L12.000 2.010L12.000 4.000L10.000 4.000Z']);
    expect(result.problems).toEqual([]);
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
