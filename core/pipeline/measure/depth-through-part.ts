/**
 * How far each pixel of a thin part of the metal lies from the wide metal, in pixels, measured
 * through the part itself: its straight distance to the wide metal (`toWide`, squared pixels) when the way
 * through the part is hardly longer, else the way through the part. A sliver between two strokes
 * lies a slot's width from the other stroke's wide metal, but the floor's disc reaches into it only
 * from its own: measured straight, a sliver 1.2 mm past its disc passed as a 0.7 mm tip.
 *
 * The way through is a shortest path over the part's pixels (steps to the 16 pixels of a 5 × 5
 * square, each its own length; a knight's step only past two pixels of the part), from the pixels
 * beside the wide metal, which start at their straight distance. Such paths are at most about 3 %
 * longer than straight lines, so a straight distance is kept wherever the path is within
 * `STRAIGHT_SLACK` of it: a straight point measures exactly as before.
 */
export function depthsThroughPart(pixels: readonly number[], toWide: ArrayLike<number>, w: number): Float64Array {
  const n = pixels.length;
  const local = new Map<number, number>();
  pixels.forEach((i, m) => local.set(i, m));
  const dist = new Float64Array(n).fill(Infinity);
  const heap = new MinHeap(n);
  for (let m = 0; m < n; m++) {
    if (toWide[m]! <= 2) {
      dist[m] = Math.sqrt(toWide[m]!);
      heap.push(m, dist[m]!);
    }
  }
  const inPart = (x: number, y: number): number => (x < 0 || x >= w || y < 0 ? -1 : (local.get(y * w + x) ?? -1));
  while (heap.size > 0) {
    const [m, d] = heap.pop();
    if (d > dist[m]!) continue;
    const i = pixels[m]!;
    const x = i % w;
    const y = (i - x) / w;
    for (const [dx, dy, length] of STEPS) {
      const q = inPart(x + dx, y + dy);
      if (q < 0) continue;
      // A knight's step passes between two pixels: both in the part, or it cuts a corner of air.
      if (Math.abs(dx) + Math.abs(dy) === 3) {
        const sx = Math.sign(dx);
        const sy = Math.sign(dy);
        const [ax, ay, bx, by] = Math.abs(dx) === 2 ? [sx, 0, sx, sy] : [0, sy, sx, sy];
        if (inPart(x + ax, y + ay) < 0 || inPart(x + bx, y + by) < 0) continue;
      }
      if (d + length < dist[q]!) {
        dist[q] = d + length;
        heap.push(q, dist[q]!);
      }
    }
  }
  for (let m = 0; m < n; m++) {
    const straight = Math.sqrt(toWide[m]!);
    if (dist[m]! <= STRAIGHT_SLACK * straight || !Number.isFinite(dist[m]!)) dist[m] = straight;
  }
  return dist;
}

/** A way through the part this much longer than the straight line is the grid's, not a bend's. */
const STRAIGHT_SLACK = 1.1;

const STEPS: [number, number, number][] = [];
for (let dy = -2; dy <= 2; dy++) {
  for (let dx = -2; dx <= 2; dx++) {
    const king = Math.abs(dx) <= 1 && Math.abs(dy) <= 1;
    const knight = Math.abs(dx) + Math.abs(dy) === 3;
    if ((king || knight) && (dx !== 0 || dy !== 0)) STEPS.push([dx, dy, Math.hypot(dx, dy)]);
  }
}

/** A binary min-heap of (item, key) pairs; an item may be pushed again with a smaller key. */
class MinHeap {
  private items: Int32Array;
  private keys: Float64Array;
  size = 0;
  constructor(capacity: number) {
    this.items = new Int32Array(Math.max(16, capacity));
    this.keys = new Float64Array(Math.max(16, capacity));
  }
  push(item: number, key: number): void {
    if (this.size === this.items.length) {
      const items = new Int32Array(this.size * 2);
      const keys = new Float64Array(this.size * 2);
      items.set(this.items);
      keys.set(this.keys);
      [this.items, this.keys] = [items, keys];
    }
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.items[at] = this.items[parent]!;
      this.keys[at] = this.keys[parent]!;
      at = parent;
    }
    this.items[at] = item;
    this.keys[at] = key;
  }
  pop(): [number, number] {
    const top: [number, number] = [this.items[0]!, this.keys[0]!];
    const item = this.items[--this.size]!;
    const key = this.keys[this.size]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.items[at] = this.items[child]!;
      this.keys[at] = this.keys[child]!;
      at = child;
    }
    this.items[at] = item;
    this.keys[at] = key;
    return top;
  }
}
