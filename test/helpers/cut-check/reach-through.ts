/**
 * How far a lost part of a phase reaches from the opening (the pixels within reach of a core),
 * measured through the part itself. The straight distance to the nearest core may cross the other
 * phase: a sliver of metal between two strokes of a script letter sits a slot's width from the
 * next stroke's body, yet it runs on for millimetres from its own. A tip is short through itself.
 *
 * A shortest path over the part's pixels (moves to the 16 pixels a knight's move or less away,
 * each costing its length), starting at the part's pixels that touch the opening, each at its own
 * straight reach there. The path's reach is a few per cent over the straight reach of a straight
 * part, so within 5 % of it the straight reach stands.
 */
import type { Grid } from './types.ts';

const MOVES: readonly (readonly [number, number])[] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
  [2, 1],
  [2, -1],
  [-2, 1],
  [-2, -1],
  [1, 2],
  [1, -2],
  [-1, 2],
  [-1, -2],
];

/** The path's reach may exceed the straight one by this factor on a straight part (16 moves: 2.7 %). */
const STRAIGHT_SLACK = 1.05;

/**
 * The reach of `part` (its pixels, from `lostParts`) through itself, mm: the largest over its
 * pixels of the shortest path from a pixel touching the opening (`touchesOpening`), and that pixel.
 * `straightReach(k)` is a pixel's straight reach. Infinity when no pixel touches the opening.
 */
export function reachThrough(
  grid: Grid,
  part: Int32Array,
  size: number,
  touchesOpening: (k: number) => boolean,
  straightReach: (k: number) => number,
): { reachMm: number; farthest: number } {
  const { nx, ny, dx, dy } = grid;
  const slot = new Map<number, number>();
  for (let t = 0; t < size; t++) slot.set(part[t]!, t);
  const best = new Float64Array(size).fill(Infinity);
  const heap = new PathHeap();
  for (let t = 0; t < size; t++) {
    const k = part[t]!;
    if (!touchesOpening(k)) continue;
    best[t] = Math.max(0, straightReach(k));
    heap.push(t, best[t]!);
  }
  // The part is 4-connected: from any pixel touching the opening, the path reaches all of it.
  if (heap.size === 0) return { reachMm: Infinity, farthest: part[0]! };
  let farthest = 0;
  let at = part[0]!;
  for (let next = heap.pop(); next !== undefined; next = heap.pop()) {
    const [t, d] = next;
    if (d > best[t]!) continue;
    const k = part[t]!;
    if (d > farthest) [farthest, at] = [d, k];
    const i = k % nx;
    const j = (k - i) / nx;
    for (const [mi, mj] of MOVES) {
      const qi = i + mi;
      const qj = j + mj;
      if (qi < 0 || qj < 0 || qi >= nx || qj >= ny) continue;
      const u = slot.get(qj * nx + qi);
      if (u === undefined) continue;
      // A knight's move passes between two pixels: both must be of the part, or it cuts a corner.
      if (Math.abs(mi) === 2 && !(slot.has(j * nx + i + mi / 2) && slot.has(qj * nx + i + mi / 2))) continue;
      if (Math.abs(mj) === 2 && !(slot.has((j + mj / 2) * nx + i) && slot.has((j + mj / 2) * nx + qi))) continue;
      const step = Math.hypot(mi * dx, mj * dy);
      if (d + step < best[u]!) {
        best[u] = d + step;
        heap.push(u, d + step);
      }
    }
  }
  return { reachMm: farthest, farthest: at };
}

/** Whether the reach through the part stands instead of the straight reach. */
export const throughIsLonger = (through: number, straight: number): boolean => through > straight * STRAIGHT_SLACK;

/** A binary min-heap of (slot, distance). */
class PathHeap {
  private slots: number[] = [];
  private keys: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(slot: number, key: number): void {
    this.slots.push(slot);
    this.keys.push(key);
    let c = this.keys.length - 1;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (this.keys[p]! <= this.keys[c]!) break;
      this.swap(c, p);
      c = p;
    }
  }

  pop(): [number, number] | undefined {
    if (this.keys.length === 0) return undefined;
    const top: [number, number] = [this.slots[0]!, this.keys[0]!];
    const lastSlot = this.slots.pop()!;
    const lastKey = this.keys.pop()!;
    if (this.keys.length > 0) {
      this.slots[0] = lastSlot;
      this.keys[0] = lastKey;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1;
        const r = l + 1;
        let m = p;
        if (l < this.keys.length && this.keys[l]! < this.keys[m]!) m = l;
        if (r < this.keys.length && this.keys[r]! < this.keys[m]!) m = r;
        if (m === p) break;
        this.swap(p, m);
        p = m;
      }
    }
    return top;
  }

  private swap(a: number, b: number): void {
    [this.slots[a], this.slots[b]] = [this.slots[b]!, this.slots[a]!];
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
  }
}
