import { Clipper, EndType, JoinType, type Path64 } from 'clipper2-ts';
import { describe, expect, it } from 'vitest';
import { checkFloors, parseCutoutsSvg, UNITS_PER_MM } from './floors.ts';

const floors = { minOpeningMm: 0.2, minMetalMm: 0.6 };
const L = 155;
const W = 20;

const f = (v: number): string => v.toFixed(3);
const ring = (points: Array<[number, number]>): string =>
  'M ' + points.map(([x, y]) => `${f(x)} ${f(y)}`).join(' L ') + ' Z';
const rect = (x: number, y: number, w: number, h: number): string =>
  ring([
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ]);
const arc = (cx: number, cy: number, r: number, from: number, to: number, steps = 48): Array<[number, number]> =>
  Array.from({ length: steps + 1 }, (_, i): [number, number] => {
    const a = from + ((to - from) * i) / steps;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
const circle = (cx: number, cy: number, r: number, steps = 48): string =>
  ring(arc(cx, cy, r, 0, 2 * Math.PI, steps).slice(0, steps));
const cutoutsSvg = (paths: string[], length = L, width = W): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${length} ${width}" width="${length}mm" height="${width}mm">` +
  `<g id="cutouts" fill="#000" fill-rule="evenodd">${paths.map((d) => `<path d="${d}"/>`).join('')}</g></svg>`;

const twentyHoles = Array.from({ length: 20 }, (_, i) => circle(5 + i * 7.5, 10, 1));

describe('checkFloors', () => {
  it('passes a plain strip with round holes', () => {
    const report = checkFloors(cutoutsSvg(twentyHoles), floors);
    expect(report).toMatchObject({
      lengthMm: 155,
      widthMm: 20,
      cutPaths: 20,
      openings: 20,
      outlineCuts: 0,
      metalPieces: 1,
      trappedIslands: 0,
      openingsNarrowerThan: [],
      metalNarrowerThan: [],
      contractProblems: [],
      ok: true,
    });
    expect(report.metalAreaMm2).toBeCloseTo(155 * 20 - 20 * Math.PI, 0);
  });

  it('fails a 0.15 mm slot as narrow everywhere and passes a 0.3 mm slot', () => {
    const thin = checkFloors(cutoutsSvg([rect(50, 9.925, 5, 0.15)]), floors);
    expect(thin.openingsNarrowerThan).toHaveLength(1);
    expect(thin.openingsNarrowerThan[0]).toMatchObject({ kind: 'narrow-everywhere' });
    expect(thin.openingsNarrowerThan[0]!.x).toBeCloseTo(52.5, 1);
    expect(thin.openingsNarrowerThan[0]!.y).toBeCloseTo(10, 1);
    expect(thin.ok).toBe(false);

    const wide = checkFloors(cutoutsSvg([rect(50, 9.85, 5, 0.3)]), floors);
    expect(wide.openingsNarrowerThan).toEqual([]);
    expect(wide.ok).toBe(true);
  });

  it('locates the pinch of a 1 mm slot that narrows to 0.1 mm over 1 mm', () => {
    const pinched = ring([
      [40, 9.5],
      [44.5, 9.5],
      [44.5, 9.95],
      [45.5, 9.95],
      [45.5, 9.5],
      [50, 9.5],
      [50, 10.5],
      [45.5, 10.5],
      [45.5, 10.05],
      [44.5, 10.05],
      [44.5, 10.5],
      [40, 10.5],
    ]);
    const report = checkFloors(cutoutsSvg([pinched]), floors);
    expect(report.openingsNarrowerThan).toHaveLength(1);
    const [pinch] = report.openingsNarrowerThan;
    expect(pinch!.kind).toBe('pinched');
    expect(Math.hypot(pinch!.x - 45, pinch!.y - 10)).toBeLessThan(0.3);
    expect(report.metalNarrowerThan).toEqual([]);
  });

  it('fails two openings separated by a 0.4 mm bar and passes them 1 mm apart', () => {
    const near = checkFloors(cutoutsSvg([rect(60, 8.5, 3, 3), rect(63.4, 8.5, 3, 3)]), floors);
    expect(near.metalNarrowerThan).toHaveLength(1);
    expect(near.metalNarrowerThan[0]).toMatchObject({ kind: 'thin-part' });
    expect(near.metalNarrowerThan[0]!.x).toBeCloseTo(63.2, 1);
    expect(near.metalNarrowerThan[0]!.y).toBeCloseTo(10, 1);
    expect(near.metalPieces).toBe(1);

    const apart = checkFloors(cutoutsSvg([rect(60, 8.5, 3, 3), rect(64, 8.5, 3, 3)]), floors);
    expect(apart.metalNarrowerThan).toEqual([]);
    expect(apart.ok).toBe(true);
  });

  it('counts two metal pieces when a cut splits the strip', () => {
    const report = checkFloors(cutoutsSvg([rect(70, 0, 2, 20)]), floors);
    expect(report.metalPieces).toBe(2);
    expect(report.outlineCuts).toBe(1);
    expect(report.openings).toBe(0);
    expect(report.pieces.map((p) => Math.round(p.areaMm2)).sort()).toEqual([1400, 1660]);
    expect(report.ok).toBe(false);
  });

  it('counts a trapped island inside a ring-shaped cut', () => {
    // One path, two rings: even-odd makes the cut an annulus with a 3 mm disc of metal inside.
    const annulus = `${circle(80, 10, 3)} ${circle(80, 10, 1.5)}`;
    const report = checkFloors(cutoutsSvg([annulus]), floors);
    expect(report.cutRings).toBe(2);
    expect(report.metalPieces).toBe(1);
    expect(report.trappedIslands).toBe(1);
    expect(report.islands[0]!.x).toBeCloseTo(80, 1);
    expect(report.islands[0]!.y).toBeCloseTo(10, 1);
    expect(report.islands[0]!.areaMm2).toBeCloseTo(Math.PI * 1.5 ** 2, 1);
    expect(report.openingsNarrowerThan).toEqual([]);
    expect(report.ok).toBe(false);
  });

  it('locates the neck of a disc held only by a 0.4 mm bar inside a C-shaped slot', () => {
    // Annular slot between r = 2 and r = 3 around (120, 10), interrupted at angle 0 by a 0.4 mm bar.
    const a3 = Math.asin(0.2 / 3);
    const a2 = Math.asin(0.2 / 2);
    const slot = ring([...arc(120, 10, 3, a3, 2 * Math.PI - a3), ...arc(120, 10, 2, 2 * Math.PI - a2, a2)]);
    const report = checkFloors(cutoutsSvg([slot]), floors);
    expect(report.metalPieces).toBe(1);
    expect(report.trappedIslands).toBe(0);
    const pinched = report.metalNarrowerThan.filter((failure) => failure.kind === 'pinched');
    expect(pinched).toHaveLength(1);
    expect(Math.hypot(pinched[0]!.x - 122.5, pinched[0]!.y - 10)).toBeLessThan(0.4);
  });

  it('fails a 0.2 mm spur of metal sticking into an opening', () => {
    const withSpur = ring([
      [100, 8],
      [104, 8],
      [104, 12],
      [102.1, 12],
      [102.1, 10.5],
      [101.9, 10.5],
      [101.9, 12],
      [100, 12],
    ]);
    const report = checkFloors(cutoutsSvg([withSpur]), floors);
    expect(report.metalNarrowerThan).toHaveLength(1);
    const [spur] = report.metalNarrowerThan;
    expect(spur!.kind).toBe('thin-part');
    expect(Math.hypot(spur!.x - 102, spur!.y - 11.25)).toBeLessThan(0.3);
    expect(spur!.areaMm2).toBeGreaterThan(0.2);
  });

  it('passes rounded and pointed ends (cuts at the outline, tapering into the strip edge)', () => {
    const roundedLeft = ring([[0, 0], ...arc(10, 10, 10, -Math.PI / 2, -1.5 * Math.PI), [0, 20]]);
    const roundedRight = ring([[155, 0], [155, 20], ...arc(145, 10, 10, Math.PI / 2, -Math.PI / 2)]);
    const rounded = checkFloors(cutoutsSvg([roundedLeft, roundedRight, ...twentyHoles.slice(2, 18)]), floors);
    expect(rounded).toMatchObject({ openings: 16, metalPieces: 1, ok: true });
    // An arc that touches the strip edge splits its end's air in two regions meeting at a point.
    expect(rounded.outlineCuts).toBeGreaterThanOrEqual(2);

    const pointed = [
      ring([
        [0, 0],
        [8, 0],
        [0, 10],
      ]),
      ring([
        [0, 10],
        [8, 20],
        [0, 20],
      ]),
      ring([
        [147, 0],
        [155, 0],
        [155, 10],
      ]),
      ring([
        [155, 10],
        [155, 20],
        [147, 20],
      ]),
    ];
    const report = checkFloors(cutoutsSvg([...pointed, ...twentyHoles.slice(2, 18)]), floors);
    expect(report).toMatchObject({ cutPaths: 20, openings: 16, metalPieces: 1, ok: true });
    expect(report.outlineCuts).toBeGreaterThanOrEqual(2);
  });

  it('fails a pocket at the outline joined to the outside through a 0.1 mm neck', () => {
    const keyhole = [
      ...arc(30, 3, 1, -Math.PI / 2 + 0.05, 1.5 * Math.PI - 0.05).reverse(),
      [30.05, 0] as [number, number],
      [29.95, 0] as [number, number],
    ];
    const report = checkFloors(cutoutsSvg([ring(keyhole)]), floors);
    expect(report.outlineCuts).toBe(1);
    expect(report.openingsNarrowerThan).toHaveLength(1);
    expect(report.openingsNarrowerThan[0]).toMatchObject({ kind: 'pinched' });
    expect(Math.hypot(report.openingsNarrowerThan[0]!.x - 30, report.openingsNarrowerThan[0]!.y - 3)).toBeLessThan(0.3);
  });

  it('reads several rings per path and reports numbers not written with three decimals', () => {
    const parsed = parseCutoutsSvg(cutoutsSvg([`${rect(10, 5, 2, 2)} ${rect(20, 5, 2, 2)}`, 'M 1.5 1 L 2 1 L 2 2 Z']));
    expect(parsed.cuts.map((rings) => rings.length)).toEqual([2, 1]);
    expect(parsed.problems.some((p) => p.includes('1.5'))).toBe(true);
    expect(() => parseCutoutsSvg(cutoutsSvg(['M 1.000 1.000 C 2.000 2.000 3.000 3.000 4.000 4.000 Z']))).toThrow(
      /only M, L, Z/,
    );
  });

  it('checks a lace of 2000 openings in a few seconds', () => {
    const holes: string[] = [];
    for (let col = 0; col < 125; col++) {
      for (let row = 0; row < 16; row++) holes.push(circle(3 + col * 1.2, 1 + row * 1.2, 0.25, 32));
    }
    const started = performance.now();
    const report = checkFloors(cutoutsSvg(holes), floors);
    const ms = performance.now() - started;
    console.info(`checkFloors on 2000 openings: ${ms.toFixed(0)} ms`);
    expect(report).toMatchObject({ openings: 2000, metalPieces: 1, trappedIslands: 0, ok: true });
    expect(ms).toBeLessThan(20_000);
  });
});

describe('clipper2-ts offsets (regression: clipper2-js 1.2.4 inflated a 10 mm square by 0.3 mm to 106.09 mm²)', () => {
  const S = UNITS_PER_MM;
  const square: Path64 = [
    { x: 0, y: 0 },
    { x: 10 * S, y: 0 },
    { x: 10 * S, y: 10 * S },
    { x: 0, y: 10 * S },
  ];
  const inflatedArea = (join: JoinType): number =>
    Math.abs(Clipper.areaPaths(Clipper.inflatePaths([square], 0.3 * S, join, EndType.Polygon))) / S ** 2;

  it('round joins give 112.36 mm² less the rounded corners (within 0.3)', () => {
    const exact = 100 + 4 * 10 * 0.3 + Math.PI * 0.3 ** 2; // 112.2827
    expect(Math.abs(inflatedArea(JoinType.Round) - 112.36)).toBeLessThan(0.3);
    expect(inflatedArea(JoinType.Round)).toBeCloseTo(exact, 2);
  });

  it('miter joins give exactly 112.36 mm²', () => {
    expect(inflatedArea(JoinType.Miter)).toBe(112.36);
  });

  it('square joins give 112.36 mm² less four corner chamfers at distance 0.3 (Clipper2 squares corners off)', () => {
    const chamfer = (0.3 * (Math.SQRT2 - 1)) ** 2; // triangle cut from each mitred corner
    expect(inflatedArea(JoinType.Square)).toBeCloseTo(112.36 - 4 * chamfer, 3);
  });
});
