import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFinalCuts, finalCuts, isClean, type FinalProblems } from '../../../core/pipeline/final-check/check.ts';
import { mendRing } from '../../../core/pipeline/final-check/mend.ts';
import { metalLoops } from '../../../core/pipeline/final-check/metal-loops.ts';
import { roundCuts, twiceArea, type FinalCut, type Ring } from '../../../core/pipeline/final-check/rings.ts';
import { cuttingSvg } from '../../../core/pipeline/stages/cutting-svg.ts';
import { checkCutSvg } from '../../helpers/cut-check/index.ts';
import { ringSet, segmentGrid } from '../../../core/pipeline/final-check/segment-grid.ts';
import { simplicityProblems } from '../../../core/pipeline/final-check/simplicity.ts';
import { circle, cut, middle, rect, ring, type Pt } from './cut-shapes.ts';

/**
 * The final check of the cutting file against its definition, on hand-made files in millimetres:
 * each case is drawn just on either side of a floor, so the check must find it on one side and
 * pass it on the other.
 */
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 };
const L = 60;
const W = 10;
/** A straight-sided wedge of metal on an opening's floor: `base` mm across, its point one vertex `length` mm up, turned by `turn` degrees. */
const wedge = (base: number, length: number, turn = 0): Pt[] => {
  const a = (turn * Math.PI) / 180;
  const point: Pt = [15 + length * Math.sin(a), 8 - length * Math.cos(a)];
  return [[10, 2], [20, 2], [20, 8], [15 + base / 2, 8], point, [15 - base / 2, 8], [10, 8]];
};

const check = (cuts: FinalCut[], length = L, width = W): FinalProblems =>
  checkFinalCuts(cuts, length * 1000, width * 1000, rules);
const narrowest = (chords: { width: number }[]) => Math.min(...chords.map((c) => c.width)) / 1000;

describe('final check: metal between two boundaries', () => {
  it('finds a 0.35 mm web between two round holes, between them, and passes a 0.65 mm one', () => {
    const thin = check([cut(circle(20, 5, 1)), cut(circle(22.35, 5, 1))]);
    expect(narrowest(thin.thinMetal)).toBeCloseTo(0.35, 2);
    for (const c of thin.thinMetal) expect(middle(c)[0]).toBeCloseTo(21.17, 0);
    expect(isClean(check([cut(circle(20, 5, 1)), cut(circle(22.65, 5, 1))]))).toBe(true);
  });

  it('finds a hole 0.3 mm from the long edge and passes one 0.7 mm from it', () => {
    const near = check([cut(circle(30, 1.3, 1))]);
    expect(narrowest(near.thinMetal)).toBeCloseTo(0.3, 2);
    expect(isClean(check([cut(circle(30, 1.7, 1))]))).toBe(true);
  });

  it('holds the floor exactly: a 0.600 mm bar between two openings passes, 0.599 mm does not', () => {
    expect(isClean(check([cut(rect(10, 2, 5, 6)), cut(rect(15.6, 2, 5, 6))]))).toBe(true);
    const thin = check([cut(rect(10, 2, 5, 6)), cut(rect(15.599, 2, 5, 6))]);
    expect(narrowest(thin.thinMetal)).toBeCloseTo(0.599, 3);
  });

  it('finds two touching openings (no metal between them)', () => {
    const p = check([cut(rect(10, 2, 5, 6)), cut(rect(15, 3, 5, 4))]);
    expect(p.thinMetal.some((c) => c.width === 0)).toBe(true);
    expect(p.notSimple.map((q) => q.kind)).toContain('rings-touch');
  });
});

describe('final check: metal across one boundary', () => {
  /** An opening with a metal finger of the given width and length reaching in from its floor. */
  const finger = (width: number, length: number): Pt[] => [
    [10, 2],
    [20, 2],
    [20, 8],
    [15 + width / 2, 8],
    [15 + width / 2, 8 - length],
    [15 - width / 2, 8 - length],
    [15 - width / 2, 8],
    [10, 8],
  ];

  it('finds a 0.3 mm finger 2 mm long and allows a 0.3 mm stub 0.4 mm long (a tip)', () => {
    expect(narrowest(check([cut(finger(0.3, 2))]).thinMetal)).toBeCloseTo(0.3, 2);
    expect(isClean(check([cut(finger(0.3, 0.4))]))).toBe(true);
  });

  it('finds the mouth of a C-shaped opening narrower than the floor', () => {
    // A ring-shaped slot, open at the right by a gap of 0.4 mm: the disc of metal it encloses is
    // held by that 0.4 mm bridge.
    const outer = circle(30, 5, 3, 96);
    const inner = circle(30, 5, 2, 96);
    const gap = 0.4;
    const c: Pt[] = [];
    for (const p of outer) if (!(p[0] > 32.5 && Math.abs(p[1] - 5) < gap / 2 + 0.3)) c.push(p);
    const keepInner = [...inner].reverse().filter((p) => !(p[0] > 31.5 && Math.abs(p[1] - 5) < gap / 2 + 0.3));
    const mouth = check([
      cut([
        ...c.slice(c.findIndex((p) => p[1] < 5)),
        ...c.slice(
          0,
          c.findIndex((p) => p[1] < 5),
        ),
        ...keepInner,
      ]),
    ]);
    expect(mouth.thinMetal.length).toBeGreaterThan(0);
  });

  it('finds a small knob held by a neck narrower than the floor, though the knob reaches less than a tip may', () => {
    // A lollipop of metal hanging from an opening's top wall: a 0.4 mm stick 0.2 mm long and a
    // 0.6 mm head below it, 0.8 mm in all. It reaches less than 1 mm, but it is no tip: it gets
    // wider beyond its narrowest place (a stencil letter's counter on its bridge is the same).
    const lollipop: Pt[] = [
      [10, 2],
      [20, 2],
      [20, 8],
      [15.2, 8],
      [15.2, 7.8],
      [15.3, 7.8],
      [15.3, 7.2],
      [14.7, 7.2],
      [14.7, 7.8],
      [14.8, 7.8],
      [14.8, 8],
      [10, 8],
    ];
    expect(narrowest(check([cut(lollipop)]).thinMetal)).toBeCloseTo(0.4, 3);
  });

  it('passes a point of metal whose outline turns at its second vertex (a traced wedge, few vertices on one side)', () => {
    // A wedge 0.5 mm wide at the wall and 0.53 mm high, as potrace traced one between a stencil
    // letter's diagonal and upright strokes: two vertices down its right side, six up its left. It
    // narrows all the way to its point, so every chord across it cuts off a tip.
    const wedge: Pt[] = [
      [10, 2],
      [20, 2],
      [20, 8],
      [15.7, 8],
      [15.693, 7.618],
      [15.683, 7.471],
      [15.613, 7.527],
      [15.513, 7.642],
      [15.498, 7.663],
      [15.492, 7.672],
      [15.371, 7.823],
      [15.199, 8],
      [10, 8],
    ];
    expect(check([cut(wedge)]).thinMetal).toEqual([]);
  });

  it('passes a flat-topped wedge whose traced sides are notched by a coarse drawing, and still finds a knob as wide as the floor', () => {
    // The metal inside a W drawn with 0.138 mm pixels, as traced: its sides step in by 0.03 mm, so
    // just under its 0.32 mm top it is 0.25 mm wide. That wobble is no knob; a head 0.62 mm wide on
    // a 0.5 mm stick is one, though it widens by less than the wobble allowed.
    const wedge: Pt[] = [
      [10, 2],
      [20, 2],
      [20, 8],
      [15.655, 7.995],
      [15.595, 7.831],
      [15.606, 7.817],
      [15.538, 7.702],
      [15.521, 7.693],
      [15.499, 7.685],
      [15.451, 7.519],
      [15.462, 7.487],
      [15.483, 7.347],
      [15.325, 7.347],
      [15.167, 7.347],
      [15.188, 7.487],
      [15.199, 7.519],
      [15.151, 7.685],
      [15.129, 7.693],
      [15.112, 7.701],
      [15.044, 7.833],
      [15.05, 7.847],
      [15.056, 7.861],
      [14.991, 7.99],
      [14.975, 7.997],
      [14.959, 8.003],
      [10, 8],
    ];
    expect(check([cut(wedge)]).thinMetal).toEqual([]);
    const knob: Pt[] = [
      [10, 2],
      [20, 2],
      [20, 8],
      [15.25, 8],
      [15.25, 7.6],
      [15.31, 7.6],
      [15.31, 6.98],
      [14.69, 6.98],
      [14.69, 7.6],
      [14.75, 7.6],
      [14.75, 8],
      [10, 8],
    ];
    expect(narrowest(check([cut(knob)]).thinMetal)).toBeCloseTo(0.5, 3);
  });

  it('finds a straight-sided wedge under the floor for millimetres, and allows one that is a tip', () => {
    // 1 mm across and 5 mm long, under 0.6 mm for its last 3 mm: the floor's disc stops 0.28 mm
    // short of that, so the point reaches 2.7 mm past it where a tip may reach 1 mm.
    // Its sides have no vertex but the point, where they are each other's neighbours.
    for (const turn of [0, 17]) {
      const long = check([cut(wedge(1, 5, turn))]);
      expect(long.thinMetal.length, `turned ${turn}°`).toBeGreaterThan(0);
      // Narrowest about 1.2 mm from the point, where the tip allowance ends (0.24 mm wide there).
      expect(narrowest(long.thinMetal)).toBeCloseTo(0.25, 1);
      // Every chord found lies between there and where the wedge is 0.6 mm wide, 3 mm from the point
      // (a chord square to one side has its middle up to 0.15 mm farther out).
      const point = wedge(1, 5, turn)[4]!;
      for (const c of long.thinMetal) {
        const [x, y] = middle(c);
        expect(Math.hypot(x! - point[0], y! - point[1])).toBeGreaterThan(1.1);
        expect(Math.hypot(x! - point[0], y! - point[1])).toBeLessThan(3.15);
      }
    }
    // 1.2 mm across and 1.5 mm long: under 0.6 mm for its last 0.75 mm, a tip.
    expect(isClean(check([cut(wedge(1.2, 1.5))]))).toBe(true);
  });

  it('finds a straight-sided V of air under the floor for millimetres, and allows a wide one', () => {
    const slit: Pt[] = [
      [10, 4.8],
      [14, 5],
      [10, 5.2],
    ];
    expect(check([cut(slit)]).narrowOpenings.length).toBeGreaterThan(0);
    expect(
      isClean(
        check([
          cut([
            [10, 3],
            [14, 5],
            [10, 7],
          ]),
        ]),
      ),
    ).toBe(true);
  });

  /** The right end pointed at the given angle, with a 0.1 mm flat at its tip on the strip edge. */
  const pointedEnd = (degrees: number): FinalCut[] => {
    const run = 4.95 / Math.tan((degrees / 2) * (Math.PI / 180));
    return [
      cut([
        [L - run, 0],
        [L, 0],
        [L, 4.95],
      ]),
      cut([
        [L, 5.05],
        [L, W],
        [L - run, W],
      ]),
    ];
  };

  it('allows the 90° strip corners and a pointed end of 90°, and finds a 20° point reaching 1.4 mm past its 0.6 mm width', () => {
    expect(isClean(check([cut(rect(10, 2, 3, 3))]))).toBe(true);
    expect(isClean(check(pointedEnd(90)))).toBe(true);
    const sharp = check(pointedEnd(20));
    expect(sharp.thinMetal.length).toBeGreaterThan(0);
    for (const c of sharp.thinMetal) expect(middle(c)[0]).toBeGreaterThan(L - 2);
  });
});

describe('final check: openings', () => {
  it('finds a slot 0.15 mm wide and passes one 0.25 mm wide', () => {
    expect(narrowest(check([cut(rect(10, 5, 4, 0.15))]).narrowOpenings)).toBeCloseTo(0.15, 3);
    expect(isClean(check([cut(rect(10, 5, 4, 0.25))]))).toBe(true);
  });

  it('finds the pinch of a slot narrowed to 0.1 mm and locates it', () => {
    const pinched: Pt[] = [
      [10, 4],
      [14.5, 4],
      [14.5, 4.95],
      [15.5, 4.95],
      [15.5, 4],
      [20, 4],
      [20, 6],
      [15.5, 6],
      [15.5, 5.05],
      [14.5, 5.05],
      [14.5, 6],
      [10, 6],
    ];
    const p = check([cut(pinched)]);
    expect(narrowest(p.narrowOpenings)).toBeCloseTo(0.1, 3);
    for (const c of p.narrowOpenings) expect(middle(c)[0]).toBeGreaterThan(14.4);
  });

  it('allows the sharp corners of a square opening and a notch from the outline at least the floor wide', () => {
    expect(isClean(check([cut(rect(10, 2, 3, 3)), cut(rect(30, 0, 0.3, 3))]))).toBe(true);
    expect(narrowest(check([cut(rect(30, 0, 0.1, 3))]).narrowOpenings)).toBeCloseTo(0.1, 3);
  });
});

describe('final check: pieces and islands', () => {
  it('reports metal left inside an opening as an island, inside an edge cut as detached', () => {
    expect(check([cut(rect(10, 2, 6, 6), rect(12, 4, 2, 2))]).islands).toHaveLength(1);
    expect(check([cut(rect(10, 0, 6, 6), rect(12, 1, 2, 2))]).detached).toHaveLength(1);
  });

  it('counts two pieces when a cut crosses the strip from edge to edge', () => {
    expect(check([cut(rect(20, 0, 2, W))]).pieces).toBe(2);
    expect(check([cut(rect(20, 0, 2, 5))]).pieces).toBe(1);
  });

  it('builds the outline of a strip with shaped ends as one loop with the metal inside', () => {
    const loops = metalLoops(
      [
        cut([
          [0, 0],
          [3, 0],
          [0, 3],
        ]),
        cut([
          [L, W],
          [L - 3, W],
          [L, W - 3],
        ]),
      ],
      L * 1000,
      W * 1000,
    );
    expect(loops.kinds).toEqual(['outline']);
    expect(twiceArea(loops.loops[0]!) / 2e6).toBeCloseTo(L * W - 9, 6);
  });
});

describe('final check: simple rings', () => {
  const problems = (rings: Ring[]) => {
    const set = ringSet(rings);
    return simplicityProblems(set, segmentGrid(set, 250)).map((p) => p.kind);
  };

  it('finds a bow-tie, a zero-length segment, a spike and two rings that touch', () => {
    expect(
      problems([
        ring([
          [0, 0],
          [2, 2],
          [2, 0],
          [0, 2],
        ]),
      ]),
    ).toContain('self-crossing');
    expect(
      problems([
        ring([
          [0, 0],
          [2, 0],
          [2, 0],
          [2, 2],
        ]),
      ]),
    ).toContain('zero-length');
    expect(
      problems([
        ring([
          [0, 0],
          [2, 0],
          [3, 0],
          [2.5, 0],
          [2, 2],
        ]),
      ]),
    ).toContain('back-tracking');
    expect(problems([ring(rect(0, 0, 1, 1)), ring(rect(1, 0, 1, 1))])).toContain('rings-touch');
    expect(problems([ring(rect(0, 0, 1, 1)), ring(rect(1.001, 0, 1, 1))])).toEqual([]);
  });

  it('mends a bow-tie a few micrometres across at the seam of a cusp, keeping the ring', () => {
    // A heart whose cusp is the ring's start: the last segment comes back into the cusp across
    // the first one, leaving a loop a few micrometres across.
    const heart = ring([
      [39.275, 5.1],
      [39.266, 5.094],
      [38.6, 4.6],
      [38.3, 5.2],
      [39.0, 6.0],
      [39.3, 6.4],
      [39.6, 6.0],
      [40.3, 5.2],
      [40.0, 4.6],
      [39.262, 5.104],
      [39.277, 5.111],
    ]);
    expect(problems([heart])).toContain('self-crossing');
    const mended = mendRing(heart)!;
    expect(problems([mended])).toEqual([]);
    expect(Math.abs(twiceArea(mended) / twiceArea(heart) - 1)).toBeLessThan(0.01);
  });

  it('mends while writing the file: the rounded cuts come back simple', () => {
    const { cuts, problems: p } = finalCuts(
      [
        {
          outer: [
            [20, 5],
            [24, 5],
            [24, 8],
            [20, 8],
            [20.5, 4.9],
          ],
          holes: [],
        },
      ],
      L * 1000,
      W * 1000,
      rules,
    );
    expect(p.notSimple).toEqual([]);
    expect(cuts).toHaveLength(1);
  });
  it('writes no fold: a Z step of a few micrometres at a pointed opening is merged, the rest kept as traced', () => {
    // The top of a pointed opening of the bench lace as traced before folds were merged: the step
    // from (28.2, 4.701) back to (28.194, 4.711) turns back against both its neighbours.
    const traced: Pt[] = [
      [27.383, 4.688],
      [27.783, 4.656],
      [28.14, 4.672],
      [28.2, 4.701],
      [28.194, 4.711],
      [28.266, 4.754],
      [28.463, 4.833],
      [28.3, 5.6],
      [27.5, 5.4],
    ];
    const lengthMm = 40;
    const widthMm = 10;
    const cuts = roundCuts([{ outer: traced, holes: [] }], { L: lengthMm * 1000, W: widthMm * 1000 });
    const report = checkCutSvg(cuttingSvg(lengthMm, widthMm, cuts), rules);
    expect(report.polygonProblems).toEqual([]);
    const asTraced = checkCutSvg(cuttingSvg(lengthMm, widthMm, [cut(traced)]), rules);
    expect(asTraced.polygonProblems.map((p) => p.kind)).toEqual(['fold']);
    expect(cuts[0]!.outer.length / 2).toBe(traced.length - 1);
  });
});

describe('final check: properties', () => {
  it('agrees with the independent checker on straight-sided points of metal, never passing one it finds', () => {
    // A point of half-angle θ is a tip to the checker while the floor's disc (0.3 mm radius) stops
    // within 1 mm of its end: 0.3 / sin θ - 0.3 <= 1, θ >= 13.34° (13.1-13.3° on its raster, by the
    // point's direction). The final check measures from the floor-wide chord and refuses a little
    // sooner: up to 14.1° it may find what the checker passes, never the other way round.
    fc.assert(
      fc.property(
        fc.double({ min: 6, max: 30, noNaN: true }),
        fc.double({ min: -20, max: 20, noNaN: true }),
        (halfAngle, turn) => {
          const length = 4;
          const base = 2 * length * Math.tan((halfAngle * Math.PI) / 180);
          const cuts = [cut(wedge(base, length, turn))];
          const ours = check(cuts).thinMetal.length > 0;
          const checker = checkCutSvg(cuttingSvg(L, W, cuts), rules).thinMetalCount > 0;
          const said = `half-angle ${halfAngle.toFixed(2)}°, turned ${turn.toFixed(1)}°`;
          if (checker) expect(ours, said).toBe(true);
          if (halfAngle < 12.9 || halfAngle > 14.2) expect(ours, said).toBe(checker);
        },
      ),
      { numRuns: 30, seed: 24 },
    );
  });

  it('flags two round holes exactly when the metal between them is under the floor', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        fc.double({ min: -Math.PI / 3, max: Math.PI / 3, noNaN: true }),
        (r1, r2, gap, angle) => {
          const d = r1 + r2 + gap;
          const c1: Pt = [30 - (d / 2) * Math.cos(angle), 5 - (d / 2) * Math.sin(angle)];
          const c2: Pt = [30 + (d / 2) * Math.cos(angle), 5 + (d / 2) * Math.sin(angle)];
          // Both holes well inside the strip, so only the metal between them is measured.
          if (Math.min(c1[1] - r1, c2[1] - r2) < 0.8 || Math.max(c1[1] + r1, c2[1] + r2) > W - 0.8) return;
          // Polygons inscribed in the circles: the true gap between them is up to a sagitta larger.
          const n = 256;
          const p = check([cut(circle(c1[0], c1[1], r1, n)), cut(circle(c2[0], c2[1], r2, n))]);
          const sag = Math.max(r1, r2) * (1 - Math.cos(Math.PI / n)) + 0.002;
          if (gap < 0.6 - 0.002) expect(p.thinMetal.length).toBeGreaterThan(0);
          if (gap > 0.6 + sag) expect(p.thinMetal).toEqual([]);
          expect(p.narrowOpenings).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});
