import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceTransform } from '../helpers/cut-check/index.ts';

/** Squared distance from pixel k to the nearest pixel with value 1, by trying them all. */
function bruteForce(values: number[], nx: number, dx: number, dy: number, k: number): number {
  let best = Infinity;
  const i = k % nx;
  const j = Math.floor(k / nx);
  values.forEach((value, q) => {
    if (value !== 1) return;
    const di = (q % nx) - i;
    const dj = Math.floor(q / nx) - j;
    best = Math.min(best, di * di * dx * dx + dj * dj * dy * dy);
  });
  return best;
}

const masks = fc
  .record({ nx: fc.integer({ min: 1, max: 14 }), ny: fc.integer({ min: 1, max: 14 }) })
  .chain(({ nx, ny }) =>
    fc.record({
      nx: fc.constant(nx),
      ny: fc.constant(ny),
      // Sparse and dense masks, and every so often one with no feature at all.
      values: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: nx * ny, maxLength: nx * ny }),
      threshold: fc.integer({ min: 0, max: 9 }),
    }),
  )
  .map(({ nx, ny, values, threshold }) => ({ nx, ny, values: values.map((v) => (v < threshold ? 1 : 0)) }));

function expectExact({ nx, ny, values }: { nx: number; ny: number; values: number[] }, dx: number, dy: number): void {
  const field = distanceTransform(Uint8Array.from(values), 1, nx, ny, dx, dy, { nearest: true });
  for (let k = 0; k < nx * ny; k++) {
    const expected = bruteForce(values, nx, dx, dy, k);
    const nearest = field.nearest![k]!;
    if (expected === Infinity) {
      expect(field.sq[k]).toBe(Infinity);
      expect(nearest).toBe(-1);
      continue;
    }
    // Stored as float32: equal to 7 significant digits.
    expect(Math.abs(field.sq[k]! - expected)).toBeLessThanOrEqual(1e-6 * expected);
    // The feature transform names a feature at exactly that distance (any of several tied).
    expect(values[nearest]).toBe(1);
    const di = (nearest % nx) - (k % nx);
    const dj = Math.floor(nearest / nx) - Math.floor(k / nx);
    expect(di * di * dx * dx + dj * dj * dy * dy).toBeCloseTo(expected, 9);
  }
}

describe('distanceTransform', () => {
  it('equals brute force on random small masks with square pixels', () => {
    fc.assert(
      fc.property(masks, fc.double({ min: 0.005, max: 2, noNaN: true }), (mask, side) => expectExact(mask, side, side)),
      { numRuns: 300 },
    );
  });

  it('equals brute force on random small masks with pixels of different sides', () => {
    fc.assert(
      fc.property(
        masks,
        fc.double({ min: 0.005, max: 2, noNaN: true }),
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        (mask, dx, ratio) => expectExact(mask, dx, dx * ratio),
      ),
      { numRuns: 300 },
    );
  });

  it('gives 0 on features and the distance along a row and a column', () => {
    // One feature in the middle of a 5 × 3 raster of 0.1 × 0.3 mm pixels.
    const values = new Uint8Array(15);
    values[7] = 1;
    const field = distanceTransform(values, 1, 5, 3, 0.1, 0.3, { nearest: true });
    expect(field.sq[7]).toBe(0);
    expect(field.sq[5]).toBeCloseTo(0.04, 6); // two pixels left: 0.2 mm
    expect(field.sq[2]).toBeCloseTo(0.09, 6); // one row up: 0.3 mm
    expect(field.sq[0]).toBeCloseTo(0.04 + 0.09, 6);
    expect([...field.nearest!]).toEqual(new Array(15).fill(7));
  });
});
