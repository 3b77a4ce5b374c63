/**
 * Pinches a pixel wide, on rasters as coarse as an agent's drawing (0.1063 mm a pixel) and finer:
 * a slot three pixels wide narrowed to one pixel, over two rows (square shoulders) or by two 45°
 * wedges (one row), and the same in metal (a bar three pixels wide between two openings). A slot
 * three pixels wide erodes to a single column, so its cores are only one pixel of half-width wider
 * than the pinch between them: the join must still be reported, with the width straight across it.
 */
import { describe, expect, it } from 'vitest';
import { checkCutSvg, checkMask, type Mask, type NarrowPlace } from '../helpers/cut-check/index.ts';
import { cuttingSvg, RULES, type Point } from '../helpers/cut-check/test-shapes.ts';

const NX = 400;
const NY = 170;
/** The slot's (or bar's) middle column, first row and length in pixels; it is three pixels wide. */
const MID = 200;
const TOP = 61;
const ROWS = 48;
/** The first row of the pinch: two rows from here, or the one wedge tip row. */
const PINCH = TOP + ROWS / 2 - 1;

type Narrowing = 'two rows' | 'wedges';
const NARROWINGS: Narrowing[] = ['two rows', 'wedges'];
const SIZES_AND_NARROWINGS = [0.1063, 0.05].flatMap((rho) => NARROWINGS.map((narrowing) => [rho, narrowing] as const));

/** Whether row j of the slot (or bar) is narrowed to its middle pixel. */
const pinchedRow = (j: number, narrowing: Narrowing): boolean =>
  narrowing === 'two rows' ? j === PINCH || j === PINCH + 1 : j === PINCH + 1;

/** Where the pinch lies on the strip, mm: the middle of its rows, the middle of the slot. */
const pinchOf = (rho: number, narrowing: Narrowing) => ({
  x: (MID + 0.5) * rho,
  y: (narrowing === 'two rows' ? PINCH + 1 : PINCH + 1.5) * rho,
});

/** A 400 × 170 pixel strip of metal; `air(i, j)` says which pixels are air. */
function mask(rho: number, air: (i: number, j: number) => boolean): Mask {
  const metal = new Uint8Array(NX * NY).fill(1);
  for (let j = 0; j < NY; j++) for (let i = 0; i < NX; i++) if (air(i, j)) metal[j * NX + i] = 0;
  return { lengthMm: NX * rho, widthMm: NY * rho, nx: NX, ny: NY, dx: rho, dy: rho, metal };
}

/**
 * ```
 * ############...#############
 * #############.##############   (two rows: both these rows; wedges: one row)
 * #############.##############
 * ############...#############
 * ```
 */
const slotMask = (rho: number, narrowing: Narrowing): Mask =>
  mask(rho, (i, j) => j >= TOP && j < TOP + ROWS && Math.abs(i - MID) <= (pinchedRow(j, narrowing) ? 0 : 1));

/** The metal twin: a bar three pixels wide between two openings 57 pixels wide, narrowed to one pixel. */
const barMask = (rho: number, narrowing: Narrowing): Mask =>
  mask(rho, (i, j) => {
    const off = Math.abs(i - MID);
    return j >= TOP && j < TOP + ROWS && off <= 58 && off >= (pinchedRow(j, narrowing) ? 1 : 2);
  });

/**
 * One side of the narrowing as polygon corners in mm, walking down the wall at x = `wall` with the
 * narrowing reaching `into` (±ρ) towards the middle: square shoulders over two rows, or a 45° wedge
 * whose tip lies on the middle of the pinch row. Pixel centres sample these exactly as the masks.
 */
function narrowingSide(rho: number, narrowing: Narrowing, wall: number, into: number): Point[] {
  if (narrowing === 'two rows') {
    const from = PINCH * rho;
    const to = (PINCH + 2) * rho;
    return [
      [wall, from],
      [wall + into, from],
      [wall + into, to],
      [wall, to],
    ];
  }
  const tip = (PINCH + 1.5) * rho;
  return [
    [wall, tip - rho],
    [wall + into, tip],
    [wall, tip + rho],
  ];
}

/** The slot of `slotMask` as a cutting SVG: one opening, clockwise on screen. */
function slotSvg(rho: number, narrowing: Narrowing): string {
  const left = (MID - 1) * rho;
  const right = (MID + 2) * rho;
  const top = TOP * rho;
  const bottom = (TOP + ROWS) * rho;
  const ring: Point[] = [
    [left, top],
    [right, top],
    ...narrowingSide(rho, narrowing, right, -rho),
    [right, bottom],
    [left, bottom],
    ...narrowingSide(rho, narrowing, left, rho).reverse(),
  ];
  return cuttingSvg(NX * rho, NY * rho, [[ring]]);
}

/** The bar of `barMask` as a cutting SVG: two openings whose inner walls narrow the bar. */
function barSvg(rho: number, narrowing: Narrowing): string {
  const barLeft = (MID - 1) * rho;
  const barRight = (MID + 2) * rho;
  const top = TOP * rho;
  const bottom = (TOP + ROWS) * rho;
  const leftOpening: Point[] = [
    [(MID - 58) * rho, top],
    [barLeft, top],
    ...narrowingSide(rho, narrowing, barLeft, rho),
    [barLeft, bottom],
    [(MID - 58) * rho, bottom],
  ];
  const rightOpening: Point[] = [
    [barRight, top],
    [(MID + 59) * rho, top],
    [(MID + 59) * rho, bottom],
    [barRight, bottom],
    ...narrowingSide(rho, narrowing, barRight, -rho).reverse(),
  ];
  return cuttingSvg(NX * rho, NY * rho, [[leftOpening], [rightOpening]]);
}

/** Expects exactly one place of `kind`, on the pinch (within a pixel of its middle), `width` ± `slack` wide. */
function expectOneAtPinch(
  places: NarrowPlace[],
  kind: string,
  pinch: { rho: number; narrowing: Narrowing },
  width: number,
  slack: number,
) {
  const found = places.filter((place) => place.kind === kind);
  expect(found, JSON.stringify(places)).toHaveLength(1);
  const at = pinchOf(pinch.rho, pinch.narrowing);
  expect(Math.abs(found[0]!.x - at.x)).toBeLessThanOrEqual(0.5 * pinch.rho);
  expect(Math.abs(found[0]!.y - at.y)).toBeLessThanOrEqual(pinch.rho);
  expect(Math.abs(found[0]!.widthMm - width)).toBeLessThan(slack);
}

describe('a pinch a pixel wide in a slot three pixels wide', () => {
  it.each(NARROWINGS)('is reported at 0.1063 mm a pixel with tolMm −0.1, at the pinch (%s)', (narrowing) => {
    const rho = 0.1063;
    const report = checkMask(slotMask(rho, narrowing), RULES, { tolMm: -0.1 });
    // The slot itself, 0.32 mm, passes the 0.3 mm that tolMm −0.1 asks for; only the pinch fails.
    expect(report.narrowOpenings.map((place) => place.kind)).toEqual(['pinched']);
    expectOneAtPinch(report.narrowOpenings, 'pinched', { rho, narrowing }, rho, 0.001);
    expect(report.thinMetal).toEqual([]);
  });

  it.each(NARROWINGS)('is reported at 0.05 mm a pixel at the default tolerance, at the pinch (%s)', (narrowing) => {
    const rho = 0.05;
    const report = checkMask(slotMask(rho, narrowing), RULES);
    expect(report.tolMm).toBeCloseTo(0.075, 9);
    expect(report.narrowOpenings.map((place) => place.kind)).toEqual(['pinched']);
    expectOneAtPinch(report.narrowOpenings, 'pinched', { rho, narrowing }, rho, 0.001);
    // With tolMm −0.1 the whole slot, 0.15 mm, is under 0.3 mm: narrow everywhere.
    const strict = checkMask(slotMask(rho, narrowing), RULES, { tolMm: -0.1 });
    expect(strict.narrowOpenings.map((place) => place.kind)).toEqual(['narrow-everywhere']);
  });

  it('is reported at every pixel size from 0.03 to 0.14 mm whose pixel is under the floor less the tolerance', () => {
    const missed: string[] = [];
    for (let rho = 0.03; rho < 0.14; rho += 0.0027) {
      for (const narrowing of NARROWINGS) {
        for (const tolMm of [undefined, -0.1]) {
          const report = checkMask(slotMask(rho, narrowing), RULES, { tolMm });
          const below = RULES.minOpeningMm - report.tolMm;
          // The pinch reads one pixel, the slot three (both to within a float's rounding).
          if (rho >= below - 1e-9) {
            if (report.narrowOpeningsCount > 0) missed.push(`flagged at ${rho} (${narrowing}, ${tolMm})`);
            continue;
          }
          if (3 * rho < below + 1e-9) continue; // the slot itself is narrow everywhere
          const at = pinchOf(rho, narrowing);
          const pinches = report.narrowOpenings.filter(
            (place) =>
              place.kind === 'pinched' &&
              Math.hypot(place.x - at.x, place.y - at.y) < rho &&
              Math.abs(place.widthMm - rho) < 0.01,
          );
          if (pinches.length !== 1 || report.narrowOpeningsCount !== 1) {
            missed.push(`${rho.toFixed(4)} (${narrowing}, ${tolMm}): ${JSON.stringify(report.narrowOpenings)}`);
          }
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('passes at 0.1063 mm a pixel and the default tolerance: a pinch at the floor itself samples to the same pixel', () => {
    // The default tolerance, 1.5 pixels, leaves 0.2 − 0.159 = 0.041 mm, under the one pixel
    // (0.106 mm) the narrowest opening reads: on this raster a pinch of 0.05 mm and one of
    // exactly 0.2 mm give the same pixels, and a part at the floor must pass (see `measure.ts`).
    const rho = 0.1063;
    const pinchedTo = (width: number): string => {
      const middle = (MID + 0.5) * rho;
      const ring: Point[] = [
        [(MID - 1) * rho, TOP * rho],
        [(MID + 2) * rho, TOP * rho],
        [(MID + 2) * rho, PINCH * rho],
        [middle + width / 2, PINCH * rho],
        [middle + width / 2, (PINCH + 2) * rho],
        [(MID + 2) * rho, (PINCH + 2) * rho],
        [(MID + 2) * rho, (TOP + ROWS) * rho],
        [(MID - 1) * rho, (TOP + ROWS) * rho],
        [(MID - 1) * rho, (PINCH + 2) * rho],
        [middle - width / 2, (PINCH + 2) * rho],
        [middle - width / 2, PINCH * rho],
        [(MID - 1) * rho, PINCH * rho],
      ];
      return cuttingSvg(NX * rho, NY * rho, [[ring]]);
    };
    const atFloor = checkCutSvg(pinchedTo(0.2), RULES, { resolutionMm: rho });
    const clear = checkCutSvg(pinchedTo(0.05), RULES, { resolutionMm: rho });
    expect(atFloor.resolution.dx).toBeCloseTo(rho, 12);
    expect(atFloor.resolution.dy).toBeCloseTo(rho, 12);
    expect(clear.grid.metal).toEqual(atFloor.grid.metal);
    const pad = atFloor.grid.pad;
    const row = (j: number) =>
      atFloor.grid.metal.subarray((j + pad) * atFloor.grid.nx + pad).subarray(MID - 2, MID + 3);
    expect([...row(PINCH - 1)]).toEqual([1, 0, 0, 0, 1]);
    expect([...row(PINCH)]).toEqual([1, 1, 0, 1, 1]);
    expect(atFloor.narrowOpenings).toEqual([]);
    expect(clear.narrowOpenings).toEqual([]);
    // Asked for a stricter margin, the checker flags both.
    expect(checkCutSvg(pinchedTo(0.05), RULES, { resolutionMm: rho, tolMm: -0.1 }).narrowOpenings).toHaveLength(1);
  });
});

describe('a bar three pixels wide narrowed to one pixel between two openings', () => {
  it.each(SIZES_AND_NARROWINGS)('is thin metal at the narrowing at %s mm a pixel (%s)', (rho, narrowing) => {
    for (const tolMm of [undefined, -0.1]) {
      const report = checkMask(barMask(rho, narrowing), RULES, { tolMm });
      expect(report.narrowOpenings).toEqual([]);
      expectOneAtPinch(report.thinMetal, 'between-boundaries', { rho, narrowing }, rho, 0.001);
    }
  });
});

describe('the same slots and bars as polygons, measured at the default 0.02 mm', () => {
  it.each(NARROWINGS)('reports the slot three times 0.1063 mm wide pinched to one (%s) at the pinch', (narrowing) => {
    const rho = 0.1063;
    const report = checkCutSvg(slotSvg(rho, narrowing), RULES);
    expect(report.polygonProblems).toEqual([]);
    expect(report.narrowOpenings.map((place) => place.kind)).toEqual(['pinched']);
    expectOneAtPinch(report.narrowOpenings, 'pinched', { rho, narrowing }, rho, 0.02);
    expect(report.ok).toBe(false);
  });

  it.each(NARROWINGS)('reports the slot three times 0.05 mm wide pinched to one (%s)', (narrowing) => {
    // 0.15 mm is under the floor all along: one narrow opening, wherever it is widest.
    const report = checkCutSvg(slotSvg(0.05, narrowing), RULES);
    expect(report.polygonProblems).toEqual([]);
    expect(report.narrowOpenings.map((place) => place.kind)).toEqual(['narrow-everywhere']);
    expect(Math.abs(report.narrowOpenings[0]!.widthMm - 0.15)).toBeLessThan(0.03);
    expect(report.ok).toBe(false);
  });

  it.each(SIZES_AND_NARROWINGS)(
    'reports the bar three times %s mm wide narrowed to one (%s) at the narrowing',
    (rho, narrowing) => {
      const report = checkCutSvg(barSvg(rho, narrowing), RULES);
      expect(report.polygonProblems).toEqual([]);
      expect(report.narrowOpenings).toEqual([]);
      expectOneAtPinch(report.thinMetal, 'between-boundaries', { rho, narrowing }, rho, 0.02);
    },
  );
});
