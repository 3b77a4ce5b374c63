import { forEachOutline } from './outlines.ts';
import { Scratch } from './scratch.ts';
import { smoothOutline } from './smooth-path.ts';
import type { PotraceOptions, PotracePath } from './types.ts';

export type { PotraceCurve, PotraceOptions, PotracePath, PotracePoint } from './types.ts';

/**
 * Traces every 4-connected region of a w × h bitmap that `fill` writes (1 = traced, 0 = not;
 * outside the bitmap counts as not traced) and the holes inside them, with no speckle
 * suppression, and hands each smoothed path to `visit` in potrace's scan order. `isTraced(x, y)`
 * must answer from the same bitmap. Ambiguous diagonal contacts keep traced regions apart, so
 * the untraced side is 8-connected. A path's curve is only valid during its visit.
 *
 * The tracer is our own port of potrace (`.//`, GPL-2.0, see its NOTICE.md), held to the
 * npm `potrace` package's output by `test/pipeline/potrace/potrace-module.test.ts`.
 */
export function potracePaths(
  w: number,
  h: number,
  fill: (data: Uint8Array) => void,
  isTraced: (x: number, y: number) => boolean,
  options: PotraceOptions,
  visit: (path: PotracePath) => void,
): void {
  const bitmap = new Uint8Array(w * h);
  fill(bitmap);
  const scratch = new Scratch();
  // Each outline is smoothed and visited as soon as it is found, so nothing of it but what
  // `visit` keeps outlives the next one: with thousands of openings, keeping them all alive
  // would make every young-generation collection copy them again.
  forEachOutline(w, h, bitmap, (outline) => {
    // The working copy is XOR-ed as outlines are taken out, where every outline looks traced;
    // the caller's bitmap under the start pixel tells an outline from a hole, as C potrace does.
    const start = outline.pt[0]!;
    const sign = isTraced(start.x, start.y) ? '+' : '-';
    const curve = smoothOutline(outline, sign === '-', options, scratch);
    visit({ sign, ...outline, curve });
  });
}
