/** A box `[x0, y0, x1, y1]`, inclusive, in the grid's units. */
export type Box = readonly [x0: number, y0: number, x1: number, y1: number];

/** Items bucketed by the square cells their boxes cover, to find those that may meet a box. */
export interface CellGrid<T> {
  /** Whether `test` holds for an item in a cell `box` covers (an item may be tested more than once). */
  some(box: Box, test: (item: T) => boolean): boolean;
}

const cellKey = (cx: number, cy: number): number => cy * 1_000_003 + cx;

function forCells(box: Box, size: number, visit: (key: number) => boolean | void): boolean {
  for (let cy = Math.floor(box[1] / size); cy <= Math.floor(box[3] / size); cy++) {
    for (let cx = Math.floor(box[0] / size); cx <= Math.floor(box[2] / size); cx++) {
      if (visit(cellKey(cx, cy)) === true) return true;
    }
  }
  return false;
}

/**
 * Each item in every cell `size` wide that its box (`reach`: where it can meet anything) covers. A
 * question then reads only the cells its own box covers: places refused on a lace are compared
 * with its tens of thousands of chords and segments, which pair by pair took seconds.
 */
export function cellGrid<T>(items: readonly T[], reach: (item: T) => Box, size: number): CellGrid<T> {
  const cells = new Map<number, T[]>();
  for (const item of items) {
    forCells(reach(item), size, (key) => {
      const bucket = cells.get(key);
      if (bucket) bucket.push(item);
      else cells.set(key, [item]);
    });
  }
  return { some: (box, test) => forCells(box, size, (key) => cells.get(key)?.some(test)) };
}
