import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellGrid } from '../../../core/pipeline/vector/cell-grid.ts';
import { runs } from '../../helpers/property-runs.ts';

describe('cellGrid', () => {
  const coordinate = fc.double({ min: -50, max: 50, noNaN: true });
  const disc = fc.record({ x: coordinate, y: coordinate, r: fc.double({ min: 0, max: 5, noNaN: true }) });

  it('finds a disc that covers a point exactly when comparing every disc does, whatever the cell size', () => {
    fc.assert(
      fc.property(
        fc.array(disc, { maxLength: 40 }),
        fc.array(fc.tuple(coordinate, coordinate), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(0.25, 1, 3, 1000),
        (discs, points, size) => {
          const grid = cellGrid(discs, (d) => [d.x - d.r, d.y - d.r, d.x + d.r, d.y + d.r], size);
          for (const [x, y] of points) {
            const covers = (d: (typeof discs)[number]) => Math.hypot(x - d.x, y - d.y) <= d.r;
            expect(grid.some([x, y, x, y], covers)).toBe(discs.some(covers));
          }
        },
      ),
      runs(200),
    );
  });

  it('finds a disc a segment passes through by the segment’s box', () => {
    const grid = cellGrid([{ x: 10.5, y: 3.2, r: 0.3 }], (d) => [d.x - d.r, d.y - d.r, d.x + d.r, d.y + d.r], 1);
    const through = (d: { x: number; y: number; r: number }) => Math.abs(d.y - 3) <= d.r;
    expect(grid.some([2, 3, 20, 3], through)).toBe(true);
    expect(grid.some([12, 3, 20, 3], through)).toBe(false);
  });
});
