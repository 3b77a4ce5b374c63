import { describe, expect, it } from 'vitest';
import { MAX_BITS_DEPTH, discReachBits } from '../../../core/pipeline/raster/disc-reach-bits.ts';
import { distanceTransform } from '../../../core/pipeline/raster/distance.ts';
import { distancesAt } from '../../../core/pipeline/raster/distance-at.ts';
import { labelAt, labelComponents } from '../../../core/pipeline/raster/components.ts';
import {
  intersectInto,
  invert,
  minus,
  minusInto,
  onPixels,
  discReach,
} from '../../../core/pipeline/raster/morphology.ts';
import { cutNumber } from '../../../core/pipeline/stages/cutting-svg.ts';
import { ARM, BETWEEN, classifyResidue, LOOP, TIP } from '../../../core/pipeline/measure/residue-kinds.ts';
import { isTip, surveyMetal } from '../../../core/pipeline/measure/thin-metal.ts';
import { metalStrip, rect } from '../stages/draw.ts';

/** Deterministic blobby masks: random discs, so holes and thin parts both occur. */
function blobs(w: number, h: number, count: number, seed: number): Uint8Array {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const mask = new Uint8Array(w * h);
  for (let k = 0; k < count; k++) {
    const cx = next() * w;
    const cy = next() * h;
    const r = 1 + next() * 6;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) mask[y * w + x] = 1;
  }
  return mask;
}

/** A disc's reach by definition: two exact distance transforms (erode to the depth, dilate back). */
function referenceReach(mask: Uint8Array, w: number, h: number, depth: number, outside: boolean): number[] {
  const { d2 } = distanceTransform(invert(mask), w, h, { outsideIsFeature: outside });
  const eroded = Uint8Array.from(d2, (d) => (d >= depth * depth ? 1 : 0));
  if (!eroded.some((v) => v)) return Array.from(new Uint8Array(mask.length));
  const { d2: toCore } = distanceTransform(eroded, w, h);
  return Array.from(mask, (m, i) => (m && toCore[i]! <= (depth - 0.5) ** 2 ? 1 : 0));
}

/** Components by flood fill, the slow obvious way. */
function referenceLabels(on: Uint8Array, w: number, h: number, connectivity: 4 | 8): number[] {
  const label = new Array<number>(w * h).fill(0);
  let count = 0;
  for (let s = 0; s < on.length; s++) {
    if (!on[s] || label[s]) continue;
    label[s] = ++count;
    const queue = [s];
    while (queue.length) {
      const i = queue.pop()!;
      const x = i % w;
      const y = Math.floor(i / w);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if ((!dx && !dy) || (connectivity === 4 && dx && dy)) continue;
          const nx = x + dx;
          const ny = y + dy;
          const j = ny * w + nx;
          if (nx >= 0 && ny >= 0 && nx < w && ny < h && on[j] && !label[j]) {
            label[j] = count;
            queue.push(j);
          }
        }
    }
  }
  return label;
}

const cases = [
  [60, 40, 25, 1],
  [97, 31, 60, 2],
  [40, 70, 12, 3],
  [120, 50, 150, 4],
] as const;

describe('pipeline primitives against their definitions', () => {
  it('finds what a disc reaches exactly as two distance transforms do, for every depth and edge rule', () => {
    for (const [w, h, count, seed] of cases) {
      for (const mask of [blobs(w, h, count, seed), invert(blobs(w, h, count, seed))]) {
        for (let depth = 1; depth <= 9; depth++) {
          for (const outside of [false, true]) {
            expect(Array.from(discReach(mask, w, h, depth, outside)), `${w}x${h} depth ${depth} ${outside}`).toEqual(
              referenceReach(mask, w, h, depth, outside),
            );
          }
        }
      }
    }
  });

  it('tells the residue of a disc apart as tips, arms, loops and joins as their definitions do', () => {
    // By definition, per 4-connected piece of the residue: it joins (BETWEEN) when it touches two
    // wide parts across a side; else a loop when the pixels touching its wide part fall into two
    // 8-connected stretches; else an arm when its box's diagonal passes the tip extent; else a tip.
    const reference = (residue: Uint8Array, wide: ReturnType<typeof labelComponents>, w: number, h: number) => {
      const parts = labelComponents(residue, w, h, 4);
      const kinds: number[] = [];
      for (let k = 1; k <= parts.count; k++) {
        const pixels = Array.from(residue.keys()).filter((i) => labelAt(parts, i) === k);
        const touched = new Set<number>();
        const contacts = new Set<number>();
        for (const i of pixels) {
          const [x, y] = [i % w, Math.floor(i / w)];
          for (const [nx, ny] of [
            [x - 1, y],
            [x + 1, y],
            [x, y - 1],
            [x, y + 1],
          ] as const) {
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const other = labelAt(wide, ny * w + nx);
            if (other) {
              touched.add(other);
              contacts.add(i);
            }
          }
        }
        let stretches = 0;
        const seen = new Set<number>();
        for (const start of contacts) {
          if (seen.has(start)) continue;
          stretches++;
          const stack = [start];
          seen.add(start);
          while (stack.length) {
            const i = stack.pop()!;
            for (const j of contacts) {
              const near = Math.abs((j % w) - (i % w)) <= 1 && Math.abs(Math.floor(j / w) - Math.floor(i / w)) <= 1;
              if (near && !seen.has(j)) {
                seen.add(j);
                stack.push(j);
              }
            }
          }
        }
        const xs = pixels.map((i) => i % w);
        const ys = pixels.map((i) => Math.floor(i / w));
        const extent = Math.hypot(Math.max(...xs) - Math.min(...xs) + 1, Math.max(...ys) - Math.min(...ys) + 1);
        kinds.push(touched.size >= 2 ? BETWEEN : stretches >= 2 ? LOOP : extent > 3 ? ARM : TIP);
      }
      return kinds;
    };
    const seenKinds = new Set<number>();
    for (const [w, h, count, seed] of [...cases, [45, 45, 90, 7] as const, [70, 30, 200, 8] as const]) {
      const air = blobs(w, h, count, seed);
      const reached = discReach(air, w, h, 2, false);
      const residue = minus(air, reached);
      const wide = labelComponents(reached, w, h, 4);
      const kinds = Array.from(classifyResidue(residue, wide, w, h, 3).kind).slice(1);
      expect(kinds, `${w}x${h} seed ${seed}`).toEqual(reference(residue, wide, w, h));
      for (const kind of kinds) seenKinds.add(kind);
    }
    // Every kind met, loops included, so that none of the rules goes untried.
    expect([...seenKinds].sort()).toEqual([TIP, BETWEEN, LOOP, ARM].sort());
    // A U of residue under a band of wide air, touching it at both tops, one at each end of a row:
    // a loop, though the two touching pixels are neighbours in memory across the row's end.
    const [w, h] = [6, 7];
    const wideMask = new Uint8Array(w * h).fill(1, 0, 3 * w);
    const residue = new Uint8Array(w * h).fill(1, 5 * w, 6 * w);
    for (const y of [3, 4]) residue[y * w] = residue[y * w + w - 1] = 1;
    const wide = labelComponents(wideMask, w, h, 4);
    expect(Array.from(classifyResidue(residue, wide, w, h, 3).kind).slice(1)).toEqual([LOOP]);
    expect(reference(residue, wide, w, h)).toEqual([LOOP]);
  });

  it('finds what a disc reaches on packed rows exactly as the definition, whatever the mask density or row width', () => {
    // Widths off a multiple of 4 and 32 take the byte-wise packing and partial last words.
    for (const [w, h, count, seed] of [...cases, [64, 33, 40, 5] as const, [33, 20, 30, 6] as const]) {
      for (const mask of [blobs(w, h, count, seed), invert(blobs(w, h, count, seed))]) {
        for (let depth = 1; depth <= MAX_BITS_DEPTH; depth++) {
          for (const outside of [false, true]) {
            expect(Array.from(discReachBits(mask, w, h, depth, outside)), `${w}x${h} ${depth} ${outside}`).toEqual(
              referenceReach(mask, w, h, depth, outside),
            );
          }
        }
      }
    }
  });

  it('finds what a disc reaches with row sweeps exactly as the definition at depths past the packed rows', () => {
    const [w, h] = [90, 80];
    for (const mask of [invert(blobs(w, h, 30, 7)), blobs(w, h, 30, 7)]) {
      for (const depth of [MAX_BITS_DEPTH + 1, MAX_BITS_DEPTH + 4]) {
        for (const outside of [false, true]) {
          expect(Array.from(discReach(mask, w, h, depth, outside)), `${depth} ${outside}`).toEqual(
            referenceReach(mask, w, h, depth, outside),
          );
        }
      }
    }
  });

  it('measures distances at chosen pixels exactly as the full transform', () => {
    for (const [w, h, count, seed] of cases) {
      const mask = blobs(w, h, count, seed);
      const pixels = Array.from({ length: 40 }, (_, k) => (k * 7919) % (w * h));
      for (const outside of [false, true]) {
        for (const zero of [false, true]) {
          const feature = zero ? invert(mask) : mask;
          const { d2 } = distanceTransform(feature, w, h, { outsideIsFeature: outside });
          const at = distancesAt(mask, zero, w, h, pixels, outside);
          expect(Array.from(at)).toEqual(pixels.map((i) => d2[i]!));
        }
      }
    }
  });

  it('labels components with the same numbering, sizes, first pixels and border contact as a flood fill', () => {
    for (const [w, h, count, seed] of cases) {
      for (const mask of [blobs(w, h, count, seed), invert(blobs(w, h, count, seed))]) {
        for (const connectivity of [4, 8] as const) {
          const labels = labelComponents(mask, w, h, connectivity);
          const expected = referenceLabels(mask, w, h, connectivity);
          expect(Array.from({ length: w * h }, (_, i) => labelAt(labels, i))).toEqual(expected);
          const components = Math.max(0, ...expected);
          expect(labels.count).toBe(components);
          for (let k = 1; k <= components; k++) {
            const pixels = expected.flatMap((l, i) => (l === k ? [i] : []));
            expect(labels.size[k]).toBe(pixels.length);
            expect(labels.first[k]).toBe(pixels[0]);
            const onBorder = pixels.some((i) => i < w || i >= (h - 1) * w || i % w === 0 || i % w === w - 1);
            expect(labels.touchesBorder[k]).toBe(onBorder ? 1 : 0);
          }
        }
      }
    }
  });

  it('inverts, subtracts, intersects (in place or not) and lists set pixels of any bytes, aligned or not, as their definitions', () => {
    let state = 11;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const bytes = (n: number) =>
      Uint8Array.from({ length: n }, () => (next() < 0.5 ? 0 : [1, 255, 128, 7][(next() * 4) | 0]!));
    for (const n of [0, 1, 5, 64, 1001]) {
      for (const offset of [0, 1]) {
        const a = bytes(n + offset).subarray(offset);
        const b = bytes(n + offset).subarray(offset);
        expect(Array.from(invert(a))).toEqual(Array.from(a, (v) => (v ? 0 : 1)));
        const aMinusB = Array.from(a, (v, i) => (v && !b[i] ? 1 : 0));
        expect(Array.from(minus(a, b))).toEqual(aMinusB);
        expect(Array.from(minusInto(a, b, b.slice()))).toEqual(aMinusB);
        expect(Array.from(minusInto(a.slice(), b, new Uint8Array(n)))).toEqual(aMinusB);
        // In place, over either operand.
        expect(Array.from(minusInto(a, b.slice(), a.slice()))).toEqual(aMinusB);
        const into = b.slice();
        expect(minusInto(a, into, into)).toBe(into);
        expect(Array.from(into)).toEqual(aMinusB);
        const both = a.slice();
        expect(intersectInto(both, b)).toBe(both);
        expect(Array.from(both)).toEqual(Array.from(a, (v, i) => (v && b[i] ? 1 : 0)));
        expect(Array.from(onPixels(a))).toEqual(Array.from(a).flatMap((v, i) => (v ? [i] : [])));
      }
    }
  });

  it("measures a thin part's depth through the part: a hook curled back beside its base by its length, a straight stub as before", () => {
    // In a window: a wide block on the window's floor; from its right end a 0.4 mm bar goes up
    // 1.5 mm and turns left for 2.6 mm, 0.4 mm above the block; a straight 0.4 mm stub sticks 1.5 mm
    // out of the window's right wall. The hook's end is 0.4 mm from the block across the slot.
    const r = metalStrip(16, 8);
    rect(r, 1, 1, 14, 6, 0);
    rect(r, 1, 4, 4, 3, 1);
    rect(r, 4.6, 2.1, 0.4, 1.9, 1);
    rect(r, 2, 2.1, 3, 0.4, 1);
    rect(r, 13.5, 3, 1.5, 0.4, 1);
    const thin = surveyMetal(r, 0.6).thin.filter((t) => t.depthMm > 0.3);
    const hook = thin.find((t) => t.at.x < 8)!;
    const stub = thin.find((t) => t.at.x > 8)!;
    // Straight from the block the hook's end is 0.4 mm away; through the hook about 1.6 + 2.6 mm.
    expect(hook.depthMm).toBeGreaterThan(3.5);
    expect(isTip(hook, 1, 0.6)).toBe(false);
    // The stub reaches 1.5 mm from the wall; the disc's reach stops short of the wall's corners.
    expect(stub.depthMm).toBeGreaterThan(1.3);
    expect(stub.depthMm).toBeLessThan(1.6);
  });

  it('writes cutting-file numbers exactly as toFixed(3) does, without a negative zero', () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = [0, -0, 0.0005, 0.0015, 1.2345, 2.0005, -2.0005, -0.0004, -0.0006, 155, 19.97, 999.9995];
    for (let i = 0; i < 20000; i++) values.push((next() - 0.05) * 400, Math.round(next() * 4e5) / 2000 - 10);
    for (const v of values) {
      const expected = v.toFixed(3) === '-0.000' ? '0.000' : v.toFixed(3);
      expect(cutNumber(v), String(v)).toBe(expected);
    }
  });
});
