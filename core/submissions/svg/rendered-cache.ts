/**
 * The PNGs of the SVG documents this process rendered lately, by document, at most `maxBytes` in
 * all (the least recently used go first). The same SVG sent again is then taken from here rather
 * than rendered (and counted) again, so its submission replays through content idempotency as a
 * resent PNG does. Another instance, or a restart, renders it once more.
 */
export interface RenderedCache {
  get(key: string): Buffer | undefined;
  set(key: string, png: Buffer): void;
}

export function createRenderedCache(maxBytes: number): RenderedCache {
  const kept = new Map<string, Buffer>();
  let bytes = 0;
  return {
    get(key) {
      const png = kept.get(key);
      if (!png) return undefined;
      kept.delete(key);
      kept.set(key, png);
      return png;
    },
    set(key, png) {
      if (png.length > maxBytes || kept.has(key)) return;
      kept.set(key, png);
      bytes += png.length;
      for (const [oldKey, old] of kept) {
        if (bytes <= maxBytes) break;
        kept.delete(oldKey);
        bytes -= old.length;
      }
    },
  };
}
