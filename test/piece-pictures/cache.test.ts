import { describe, expect, it } from 'vitest';
import { createPictureCache } from '../../core/piece-pictures/cache.ts';

/** The pictures' cache: bounded in bytes, least recently used out first, one drawing per picture at a time. */

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

/** A drawing that finishes when told to, and counts how often it was started. */
function gatedDraw(png: Buffer | undefined) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const draw = {
    started: 0,
    run: async () => {
      draw.started++;
      await gate;
      return png;
    },
    release: () => release(),
  };
  return draw;
}

describe('the piece pictures cache', () => {
  it('keeps pictures up to its byte budget, dropping the least recently used first', async () => {
    const cache = createPictureCache({ maxBytes: 250, concurrency: 2 });
    let draws = 0;
    const draw = (n: number, fill: number) => async () => {
      draws++;
      return bytes(n, fill);
    };
    await cache.get('a', draw(100, 1));
    await cache.get('b', draw(100, 2));
    expect(cache.stats()).toEqual({ entries: 2, bytes: 200 });
    // Using a makes b the oldest; c then pushes b out, not a.
    expect((await cache.get('a', draw(100, 9)))![0]).toBe(1);
    await cache.get('c', draw(100, 3));
    expect(cache.stats()).toEqual({ entries: 2, bytes: 200 });
    expect((await cache.get('a', draw(100, 9)))![0]).toBe(1);
    expect((await cache.get('b', draw(100, 7)))![0]).toBe(7);
    expect(draws).toBe(4);
  });

  it('serves a picture larger than the whole budget without keeping it, and keeps nothing with a budget of 0', async () => {
    const small = createPictureCache({ maxBytes: 50, concurrency: 1 });
    expect((await small.get('big', async () => bytes(100)))!.length).toBe(100);
    expect(small.stats()).toEqual({ entries: 0, bytes: 0 });
    const none = createPictureCache({ maxBytes: 0, concurrency: 1 });
    await none.get('x', async () => bytes(1));
    expect(none.stats().entries).toBe(0);
  });

  it('draws a picture asked for twice at once only once', async () => {
    const cache = createPictureCache({ maxBytes: 1000, concurrency: 2 });
    const draw = gatedDraw(bytes(10));
    const first = cache.get('k', draw.run);
    const second = cache.get('k', draw.run);
    draw.release();
    expect(await first).toBe(await second);
    expect(draw.started).toBe(1);
  });

  it('runs at most `concurrency` drawings at once, the rest in turn', async () => {
    const cache = createPictureCache({ maxBytes: 1000, concurrency: 2 });
    const draws = [gatedDraw(bytes(1)), gatedDraw(bytes(2)), gatedDraw(bytes(3))];
    const answers = draws.map((draw, i) => cache.get(`k${i}`, draw.run));
    await Promise.resolve();
    expect(draws.map((d) => d.started)).toEqual([1, 1, 0]);
    draws[0]!.release();
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(draws[2]!.started).toBe(1);
    draws[1]!.release();
    draws[2]!.release();
    expect((await Promise.all(answers)).map((png) => png!.length)).toEqual([1, 2, 3]);
  });

  it('keeps neither a failed drawing nor a missing picture: the next request draws again', async () => {
    const cache = createPictureCache({ maxBytes: 1000, concurrency: 1 });
    await expect(
      cache.get('k', async () => {
        throw new Error('librsvg failed');
      }),
    ).rejects.toThrow('librsvg failed');
    expect(await cache.get('k', async () => undefined)).toBeUndefined();
    expect((await cache.get('k', async () => bytes(5)))!.length).toBe(5);
    expect(cache.stats()).toEqual({ entries: 1, bytes: 5 });
  });
});
