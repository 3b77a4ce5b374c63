import { describe, expect, it } from 'vitest';
import { distanceTransform } from '../../../core/pipeline/raster/distance.ts';

/** Brute force: the definition itself, for comparison. */
function bruteForce(feature: Uint8Array, w: number, h: number, outside: boolean) {
  const d2 = new Float32Array(w * h).fill(Infinity);
  for (let i = 0; i < w * h; i++) {
    const x = i % w;
    const y = Math.floor(i / w);
    for (let j = 0; j < w * h; j++) {
      if (!feature[j]) continue;
      const dx = x - (j % w);
      const dy = y - Math.floor(j / w);
      d2[i] = Math.min(d2[i]!, dx * dx + dy * dy);
    }
    if (outside) {
      const edge = Math.min(x + 1, y + 1, w - x, h - y);
      d2[i] = Math.min(d2[i]!, edge * edge);
    }
  }
  return d2;
}

function randomMask(w: number, h: number, density: number, seed: number): Uint8Array {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Uint8Array.from({ length: w * h }, () => (next() < density ? 1 : 0));
}

describe('exact Euclidean distance transform', () => {
  it('matches brute force on random masks, with and without the outside as feature', () => {
    for (const [w, h, density, seed] of [
      [17, 11, 0.05, 1],
      [30, 7, 0.2, 2],
      [9, 23, 0.01, 3],
      [25, 25, 0.5, 4],
    ] as const) {
      const mask = randomMask(w, h, density, seed);
      for (const outside of [false, true]) {
        const { d2 } = distanceTransform(mask, w, h, { outsideIsFeature: outside });
        expect(Array.from(d2)).toEqual(Array.from(bruteForce(mask, w, h, outside)));
      }
    }
  });

  it('points every pixel at a nearest feature pixel', () => {
    const w = 40;
    const h = 30;
    const mask = randomMask(w, h, 0.03, 9);
    const { d2, nearest } = distanceTransform(mask, w, h, { withNearest: true });
    for (let i = 0; i < w * h; i++) {
      const j = nearest[i]!;
      expect(mask[j]).toBe(1);
      const dx = (i % w) - (j % w);
      const dy = Math.floor(i / w) - Math.floor(j / w);
      expect(dx * dx + dy * dy).toBe(d2[i]);
    }
  });

  it('is infinite everywhere when there is no feature', () => {
    const { d2 } = distanceTransform(new Uint8Array(12), 4, 3);
    expect([...d2].every((d) => d === Infinity)).toBe(true);
  });
});
