import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFinalCuts, isClean, type FinalProblems } from '../../../core/pipeline/final-check/check.ts';
import type { FinalCut } from '../../../core/pipeline/final-check/rings.ts';
import { circle, cut, middle, rect, type Pt } from './cut-shapes.ts';

/**
 * How close a cutting file came to the floors (`narrowest` of the final check), on hand-made files
 * in millimetres whose narrowest places are known: the width across a bar, a rim, a slot or a hole,
 * never across a corner or the cap of a curve, and exactly the narrowest refused chord when the
 * check refuses.
 */
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3, marginSearchMm: 2 };
const L = 60;
const W = 10;

const check = (cuts: FinalCut[], search = rules.marginSearchMm): FinalProblems =>
  checkFinalCuts(cuts, L * 1000, W * 1000, { ...rules, marginSearchMm: search });
const mm = (chord: { width: number } | undefined) => (chord ? chord.width / 1000 : undefined);

describe('final check margins: metal', () => {
  it('gives the web between two round holes as the narrowest metal, at the web', () => {
    const p = check([cut(circle(20, 5, 1)), cut(circle(22.9, 5, 1))]);
    expect(isClean(p)).toBe(true);
    expect(mm(p.narrowest.metal)).toBeCloseTo(0.9, 3);
    expect(middle(p.narrowest.metal!)[0]).toBeCloseTo(21.45, 2);
    expect(middle(p.narrowest.metal!)[1]).toBeCloseTo(5, 2);
  });

  it('gives the rim between a hole and the long edge when it is the narrowest', () => {
    const p = check([cut(circle(30, 2.2, 1)), cut(rect(10, 3, 4, 4))]);
    expect(mm(p.narrowest.metal)).toBeCloseTo(1.2, 3);
    expect(middle(p.narrowest.metal!)).toEqual([30, 0.6]);
  });

  it('gives a bar between two rectangular windows at its width, wherever along it', () => {
    const p = check([cut(rect(10, 2, 5, 6)), cut(rect(16.25, 3, 5, 4))]);
    expect(mm(p.narrowest.metal)).toBeCloseTo(1.25, 3);
    const [x, y] = middle(p.narrowest.metal!);
    expect(x).toBeCloseTo(15.625, 3);
    expect(y).toBeGreaterThanOrEqual(3);
    expect(y).toBeLessThanOrEqual(7);
  });

  it('says nothing when all metal is wider than the floor plus the search', () => {
    const p = check([cut(circle(20, 5, 1)), cut(circle(25, 5, 1))]);
    expect(p.narrowest.metal).toBeUndefined();
    expect(mm(check([cut(circle(20, 5, 1)), cut(circle(25, 5, 1))], 3).narrowest.metal)).toBeCloseTo(3, 3);
  });

  it('gives the narrowest refused chord when the check refuses thin metal', () => {
    const p = check([cut(circle(20, 5, 1)), cut(circle(22.35, 5, 1)), cut(circle(40, 5, 1)), cut(circle(42.5, 5, 1))]);
    expect(p.thinMetal.length).toBeGreaterThan(0);
    expect(mm(p.narrowest.metal)).toBeCloseTo(0.35, 3);
    expect(p.narrowest.metal!.width).toBe(Math.min(...p.thinMetal.map((c) => c.width)));
    expect(middle(p.narrowest.metal!)[0]).toBeCloseTo(21.17, 1);
  });

  it('does not count a tooth of metal narrowing to a point, which no crossing meets square', () => {
    // A 60° tooth of metal reaching 1.04 mm into a large opening from a 1.2 mm base: under the
    // floor only within 0.52 mm of its point, allowed there as a tip; the rims are 3 mm.
    const opening: Pt[] = [
      [10, 3],
      [30, 3],
      [30, 7],
      [10, 7],
      [10, 5.6],
      [11.04, 5],
      [10, 4.4],
    ];
    const p = check([cut(opening)]);
    expect(isClean(p)).toBe(true);
    expect(p.narrowest.metal).toBeUndefined();
  });
});

describe('final check margins: openings', () => {
  it('gives a round hole its diameter, not the shorter chords across its caps', () => {
    // 0.4994 mm between opposite sides of the 64-gon (vertices rounded to thousandths); a chord
    // leaning within the squareness slack (5°) a little less. Across a cap it would be far less.
    const p = check([cut(circle(30, 5, 0.25))]);
    expect(mm(p.narrowest.opening)).toBeGreaterThan(0.495);
    expect(mm(p.narrowest.opening)).toBeLessThanOrEqual(0.5);
  });

  it('gives a slot its width between the long walls, not its square ends', () => {
    const p = check([cut(rect(20, 4.8, 5, 0.4)), cut(circle(40, 5, 0.45))]);
    expect(mm(p.narrowest.opening)).toBeCloseTo(0.4, 3);
    const [x, y] = middle(p.narrowest.opening!);
    expect(x).toBeGreaterThan(20);
    expect(x).toBeLessThan(25);
    expect(y).toBeCloseTo(5, 3);
  });

  it('does not count the corners of a triangular opening, and says nothing of openings wider than the metal floor', () => {
    const p = check([
      cut([
        [20, 2],
        [24, 5],
        [20, 8],
      ]),
      cut(rect(40, 3, 4, 4)),
    ]);
    expect(isClean(p)).toBe(true);
    expect(p.narrowest.opening).toBeUndefined();
  });

  it('gives the narrowest refused chord when the check refuses a pinched opening', () => {
    const p = check([
      cut([
        [20, 4.5],
        [24.9, 4.5],
        [25, 5.4],
        [25.1, 4.5],
        [30, 4.5],
        [30, 5.5],
        [20, 5.5],
      ]),
    ]);
    expect(p.narrowOpenings.length).toBeGreaterThan(0);
    expect(p.narrowest.opening!.width).toBe(Math.min(...p.narrowOpenings.map((c) => c.width)));
    expect(mm(p.narrowest.opening)).toBeLessThan(0.2);
    expect(middle(p.narrowest.opening!)[0]).toBeCloseTo(25, 0);
  });
});

describe('final check margins: the search leaves the check alone', () => {
  const layout = fc.array(
    fc.record({
      x: fc.double({ min: 5, max: 55, noNaN: true }),
      y: fc.double({ min: 2, max: 8, noNaN: true }),
      r: fc.double({ min: 0.15, max: 1.5, noNaN: true }),
    }),
    { minLength: 2, maxLength: 8 },
  );
  const apart = (holes: { x: number; y: number; r: number }[]) =>
    holes.every((a, i) => holes.every((b, j) => i === j || Math.hypot(a.x - b.x, a.y - b.y) > a.r + b.r + 0.01)) &&
    holes.every((h) => h.y - h.r > 0.01 && h.y + h.r < W - 0.01);

  it('refuses exactly what it refuses without it, and never gives a passing file a width under its floor', () => {
    fc.assert(
      fc.property(layout.filter(apart), (holes) => {
        const cuts = holes.map((h) => cut(circle(h.x, h.y, h.r, 48)));
        const plain = check(cuts, 0);
        const searched = check(cuts);
        expect(searched.thinMetal).toEqual(plain.thinMetal);
        expect(searched.narrowOpenings).toEqual(plain.narrowOpenings);
        if (plain.thinMetal.length === 0 && searched.narrowest.metal)
          expect(searched.narrowest.metal.width).toBeGreaterThanOrEqual(600);
        if (plain.narrowOpenings.length === 0 && searched.narrowest.opening)
          expect(searched.narrowest.opening.width).toBeGreaterThanOrEqual(200);
        // The nearest pair of holes (or a hole and the edge) is the narrowest metal when within the search.
        const gaps = [
          ...holes.flatMap((a, i) => holes.slice(i + 1).map((b) => Math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r)),
          ...holes.flatMap((h) => [h.y - h.r, W - h.y - h.r]),
        ];
        const nearest = Math.min(...gaps);
        if (plain.thinMetal.length === 0 && nearest < 2.55)
          expect(Math.abs(mm(searched.narrowest.metal)! - nearest)).toBeLessThan(0.02);
      }),
      { numRuns: 60 },
    );
  });
});
