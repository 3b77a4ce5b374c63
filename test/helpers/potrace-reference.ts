import { createRequire } from 'node:module';
import type { PotraceOptions, PotracePath } from '../../core/pipeline/potrace/paths.ts';

interface PotraceBitmap {
  data: Uint8Array;
}

interface PotraceInstance {
  _luminanceData: { copy(threshold: (lum: number) => number): PotraceBitmap } | null;
  _imageLoaded: boolean;
  _pathlist: PotracePath[];
  _bmToPathlist(): void;
  _processPath(): void;
}

interface PotraceParameters {
  turdSize: number;
  turnPolicy: 'left';
  alphaMax: number;
  optCurve: boolean;
  threshold: number;
}

const require = createRequire(import.meta.url);
const Potrace = require('potrace/lib/Potrace') as new (params: PotraceParameters) => PotraceInstance;
const Bitmap = require('potrace/lib/types/Bitmap') as new (w: number, h: number) => PotraceBitmap;

/**
 * The npm `potrace` package (pinned at 2.1.8) run the way the pipeline ran it before it had its own
 * port: through the package's private `_bmToPathlist` and `_processPath`, the bitmap handed over
 * as the package's thresholded working copy, the sign taken from `isTraced` under each path's first
 * pixel before smoothing. The reference `core/pipeline/potrace/` is held to; nothing else may use it.
 *
 * `untracedColumn` adds one untraced column on the right, which changes no path (outside counts as
 * untraced) but keeps the package's bounds slip out of reach: its lookup lets x = w through and
 * reads the next row's first pixel there, so a region along the right border wanders past it, and
 * one that also touches the left border is traced again forever (see core/pipeline/potrace/NOTICE.md).
 */
export function referencePotracePaths(
  w: number,
  h: number,
  fill: (data: Uint8Array) => void,
  isTraced: (x: number, y: number) => boolean,
  options: PotraceOptions,
  visit: (path: PotracePath) => void,
  { untracedColumn = true } = {},
): void {
  const bw = untracedColumn ? w + 1 : w;
  const bitmap = new Bitmap(bw, h);
  if (untracedColumn) {
    const data = new Uint8Array(w * h);
    fill(data);
    for (let y = 0; y < h; y++) bitmap.data.set(data.subarray(y * w, y * w + w), y * bw);
  } else {
    fill(bitmap.data);
  }
  const potrace = new Potrace({
    turdSize: 0,
    // 'left' resolves a diagonal contact by separating the traced pixels (a test checks it).
    turnPolicy: 'left',
    alphaMax: options.alphaMax,
    optCurve: options.optCurve,
    threshold: 128,
  });
  // The bitmap is already thresholded, and potrace's thresholding copy would cost a callback
  // per pixel and a second full-size buffer: hand over the bitmap itself as its working copy
  // (potrace consumes it).
  potrace._luminanceData = { copy: () => bitmap };
  potrace._imageLoaded = true;
  potrace._bmToPathlist();
  // Reversed so that popping keeps scan order and drops each path once visited.
  const pending = potrace._pathlist.reverse();
  for (let path = pending.pop(); path; path = pending.pop()) {
    // The JS port takes the sign from its XOR-ed working copy, where it is always '+'; the
    // bitmap under the start pixel tells outline from hole as C potrace does. Set before
    // smoothing so holes are reversed like in C potrace.
    const start = path.pt[0]!;
    path.sign = isTraced(start.x, start.y) ? '+' : '-';
    path.area = Math.abs(path.area);
    // One path at a time, letting go of potrace's working data as we go: with thousands of
    // openings, keeping it all alive makes every young-generation collection copy it again.
    potrace._pathlist = [path];
    potrace._processPath();
    visit(path);
  }
  potrace._pathlist = [];
}
