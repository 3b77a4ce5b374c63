/**
 * Rendered pictures kept in memory by key, at most `maxBytes` in all (the least recently used go
 * first; a picture larger than the whole budget is served but not kept). A picture asked for
 * again while it is being drawn waits for that drawing instead of starting another, and at most
 * `concurrency` drawings run at once (the rest wait their turn in order), so a burst of page loads
 * neither repeats work nor takes every thread sharp has.
 */
export interface PictureCache {
  /** The kept picture for `key`, or the one `draw` makes (kept when it is a Buffer). */
  get(key: string, draw: () => Promise<Buffer | undefined>): Promise<Buffer | undefined>;
  /** What is kept now: for tests and logs. */
  stats(): { entries: number; bytes: number };
}

export function createPictureCache(options: { maxBytes: number; concurrency: number }): PictureCache {
  const kept = new Map<string, Buffer>();
  const drawing = new Map<string, Promise<Buffer | undefined>>();
  let bytes = 0;
  let running = 0;
  const waiting: (() => void)[] = [];

  const keep = (key: string, png: Buffer) => {
    if (png.length > options.maxBytes) return;
    kept.set(key, png);
    bytes += png.length;
    for (const [oldKey, old] of kept) {
      if (bytes <= options.maxBytes) break;
      kept.delete(oldKey);
      bytes -= old.length;
    }
  };

  // A finished drawing hands its slot straight to the next in line, so none is taken in between.
  const turn = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < options.concurrency) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };

  return {
    async get(key, draw) {
      const hit = kept.get(key);
      if (hit) {
        // Most recently used goes last: Map keeps insertion order.
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const pending = drawing.get(key);
      if (pending) return pending;
      const made = turn(draw).then(
        (png) => {
          drawing.delete(key);
          if (png) keep(key, png);
          return png;
        },
        (error: unknown) => {
          drawing.delete(key);
          throw error;
        },
      );
      drawing.set(key, made);
      return made;
    },
    stats: () => ({ entries: kept.size, bytes }),
  };
}
