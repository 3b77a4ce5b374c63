import { createRequire } from 'node:module';

/** A potrace point, in the traced bitmap's pixel-corner coordinates (y down). */
export interface PotracePoint {
  x: number;
  y: number;
}

/**
 * A traced closed curve as potrace leaves it: segment i runs from the end of segment i - 1 to
 * `c[3i + 2]`; a 'CURVE' is a cubic Bézier with controls `c[3i]`, `c[3i + 1]`, a 'CORNER' is two
 * straight lines through the vertex `c[3i + 1]`.
 */
export interface PotraceCurve {
  n: number;
  tag: ('CURVE' | 'CORNER')[];
  c: PotracePoint[];
}

/** One traced boundary: `sign` '+' outlines a traced region, '-' a hole in one. */
export interface PotracePath {
  sign: '+' | '-';
  /** Absolute area of the pixel outline, in pixels. */
  area: number;
  /** The unsmoothed pixel outline: integer corners, one per unit step. */
  pt: PotracePoint[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  curve: PotraceCurve;
}

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

export interface PotraceOptions {
  alphaMax: number;
  optCurve: boolean;
}

/**
 * Traces every 4-connected region of a w × h bitmap that `fill` writes (1 = traced, 0 = not;
 * outside the bitmap counts as not traced) and the holes inside them, with no speckle
 * suppression, and hands each smoothed path to `visit` in potrace's scan order. `isTraced(x, y)`
 * must answer from the same bitmap. Ambiguous diagonal contacts keep traced regions apart, so
 * the untraced side is 8-connected. A path's curve is only valid during its visit.
 */
export function potracePaths(
  w: number,
  h: number,
  fill: (data: Uint8Array) => void,
  isTraced: (x: number, y: number) => boolean,
  options: PotraceOptions,
  visit: (path: PotracePath) => void,
): void {
  const bitmap = new Bitmap(w, h);
  fill(bitmap.data);
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
