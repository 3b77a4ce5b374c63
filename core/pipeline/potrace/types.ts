// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.

/** A potrace point, in the traced bitmap's pixel-corner coordinates (y down). */
export interface PotracePoint {
  x: number;
  y: number;
}

/**
 * A traced closed curve as potrace leaves it: segment i runs from the end of segment i - 1 to
 * `c[3i + 2]`; a 'CURVE' is a cubic Bézier with controls `c[3i]`, `c[3i + 1]`, a 'CORNER' is two
 * straight lines through the vertex `c[3i + 1]` (its `c[3i]` repeats the vertex).
 */
export interface PotraceCurve {
  n: number;
  tag: ('CURVE' | 'CORNER')[];
  c: PotracePoint[];
}

/** A traced boundary on the pixel grid, before smoothing. */
export interface PixelOutline {
  /** Absolute area of the pixel outline, in pixels. */
  area: number;
  /** The unsmoothed pixel outline: integer corners, one per unit step. */
  pt: PotracePoint[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** One traced boundary: `sign` '+' outlines a traced region, '-' a hole in one. */
export interface PotracePath extends PixelOutline {
  sign: '+' | '-';
  curve: PotraceCurve;
}

export interface PotraceOptions {
  /** Corner threshold: a vertex whose smoothing would need `alpha >= alphaMax` stays a corner. */
  alphaMax: number;
  /** Join neighbouring curve segments where the result stays within tolerance. */
  optCurve: boolean;
}
