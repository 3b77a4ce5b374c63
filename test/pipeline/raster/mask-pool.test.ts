import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/config.ts';
import { analyseDesign } from '../../../core/pipeline/analyse.ts';
import { copyOf, drainMasks, giveMasks, pooledMasks, takeMask } from '../../../core/pipeline/raster/mask-pool.ts';
import { inspectPngHeader } from '../../../core/submissions/png-header.ts';

const benchDir = join(import.meta.dirname, '../../../../shared/bench');

describe('masks given back between stages (mask-pool.ts)', () => {
  it('hands a given mask to one taker, zeroed, and a new one to the next', () => {
    drainMasks();
    const used = new Uint8Array(64).fill(7);
    giveMasks(used);
    const first = takeMask(64);
    expect(first).toBe(used);
    expect(first.every((v) => v === 0)).toBe(true);
    const second = takeMask(64);
    expect(second).not.toBe(used);
    expect(second.every((v) => v === 0)).toBe(true);
    expect(second.length).toBe(64);
  });

  it('copies into a given mask of the same length only', () => {
    drainMasks();
    const used = new Uint8Array(8).fill(1);
    giveMasks(used);
    const source = Uint8Array.from([1, 0, 1, 0]);
    const copy = copyOf(source);
    expect(copy).not.toBe(used);
    expect(Array.from(copy)).toEqual([1, 0, 1, 0]);
    const same = copyOf(Uint8Array.from([0, 1, 1, 0, 0, 0, 1, 1]));
    expect(same).toBe(used);
    expect(Array.from(same)).toEqual([0, 1, 1, 0, 0, 0, 1, 1]);
  });

  it('keeps no view into other memory, no mask twice, and a few masks at most', () => {
    drainMasks();
    const whole = new Uint8Array(32);
    giveMasks(whole.subarray(8), whole.subarray(0, 16));
    expect(pooledMasks()).toBe(0);
    giveMasks(whole, whole);
    expect(pooledMasks()).toBe(1);
    giveMasks(...Array.from({ length: 10 }, () => new Uint8Array(32)));
    expect(pooledMasks()).toBeLessThanOrEqual(4);
    drainMasks();
    expect(pooledMasks()).toBe(0);
  });

  it('answers analyses run together on one thread as it answers each alone, and holds no mask after them', async () => {
    const analyse = (file: string, lengthMm: number, widthMm: number) => {
      const png = readFileSync(join(benchDir, file));
      const header = inspectPngHeader(png, defaultConfig.image);
      if (!header.ok) throw new Error(`unreadable bench design ${file}`);
      return analyseDesign({
        png,
        header: header.value,
        productType: 'bracelet',
        lengthMm,
        widthMm,
        config: defaultConfig,
      });
    };
    const lace = () => analyse('lace-530-holes-1536x1024.png', 165, 35);
    const strip = () => analyse('strip-100-holes-1536x1024.png', 155, 19.97);
    const alone = [await lace(), await strip()];
    expect(pooledMasks()).toBe(0);
    const together = await Promise.all([lace(), strip()]);
    expect(together).toEqual(alone);
    expect(pooledMasks()).toBe(0);
    expect(alone[0]).toMatchObject({ kind: 'analysed', errors: [] });
  }, 60_000);
});
