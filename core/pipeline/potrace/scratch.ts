// Derived from Potrace, Copyright (C) 2001-2013 Peter Selinger, through the JavaScript port in
// the npm package `potrace` 2.1.8. GPL-2.0: see ./NOTICE.md for the sources and our changes.

/**
 * The working arrays of one path's smoothing, reused from path to path and grown when a longer
 * path comes: thousands of openings then make a few arrays instead of thousands of small objects
 * each. Arrays indexed by outline point hold `capacity` entries (n + 1 is enough for n points);
 * polygon and curve arrays use the same capacity, since a polygon never has more vertices than
 * its outline has points.
 */
export class Scratch {
  capacity = 0;
  /** Outline points. */
  x = new Int32Array(0);
  y = new Int32Array(0);
  /** Prefix sums of x, y, xy, x², y² over the outline (entry i sums points 0..i-1). */
  sumX = new Float64Array(0);
  sumY = new Float64Array(0);
  sumXY = new Float64Array(0);
  sumX2 = new Float64Array(0);
  sumY2 = new Float64Array(0);
  /** Longest straight subpath from each point, and its helpers. */
  lon = new Int32Array(0);
  pivk = new Int32Array(0);
  nc = new Int32Array(0);
  /** Optimal polygon search. */
  pen = new Float64Array(0);
  prev = new Int32Array(0);
  clip0 = new Int32Array(0);
  clip1 = new Int32Array(0);
  seg0 = new Int32Array(0);
  seg1 = new Int32Array(0);
  /** The polygon: outline index of each vertex. */
  po = new Int32Array(0);
  /** Per polygon edge: centre and direction of the best-fitting line, and its quadratic form (9 each). */
  ctrX = new Float64Array(0);
  ctrY = new Float64Array(0);
  dirX = new Float64Array(0);
  dirY = new Float64Array(0);
  quad = new Float64Array(0);
  /** Adjusted vertices. */
  vx = new Float64Array(0);
  vy = new Float64Array(0);
  /** Smoothed curve: 1 where the segment is a corner, control points (3 per segment), alpha. */
  corner = new Uint8Array(0);
  cx = new Float64Array(0);
  cy = new Float64Array(0);
  alpha = new Float64Array(0);
  /** Curve optimisation. */
  convc = new Int8Array(0);
  areac = new Float64Array(0);
  optPt = new Int32Array(0);
  optPen = new Float64Array(0);
  optLen = new Int32Array(0);
  /** The accepted joined segment ending at each vertex: c0x, c0y, c1x, c1y, alpha, s, t. */
  opt = new Float64Array(0);

  /** Makes every array hold at least `n + 1` entries. */
  ensure(n: number): void {
    if (n + 1 <= this.capacity) return;
    const c = Math.max(n + 1, this.capacity * 2, 64);
    this.capacity = c;
    this.x = new Int32Array(c);
    this.y = new Int32Array(c);
    this.sumX = new Float64Array(c);
    this.sumY = new Float64Array(c);
    this.sumXY = new Float64Array(c);
    this.sumX2 = new Float64Array(c);
    this.sumY2 = new Float64Array(c);
    this.lon = new Int32Array(c);
    this.pivk = new Int32Array(c);
    this.nc = new Int32Array(c);
    this.pen = new Float64Array(c);
    this.prev = new Int32Array(c);
    this.clip0 = new Int32Array(c);
    this.clip1 = new Int32Array(c);
    this.seg0 = new Int32Array(c);
    this.seg1 = new Int32Array(c);
    this.po = new Int32Array(c);
    this.ctrX = new Float64Array(c);
    this.ctrY = new Float64Array(c);
    this.dirX = new Float64Array(c);
    this.dirY = new Float64Array(c);
    this.quad = new Float64Array(9 * c);
    this.vx = new Float64Array(c);
    this.vy = new Float64Array(c);
    this.corner = new Uint8Array(c);
    this.cx = new Float64Array(3 * c);
    this.cy = new Float64Array(3 * c);
    this.alpha = new Float64Array(c);
    this.convc = new Int8Array(c);
    this.areac = new Float64Array(c);
    this.optPt = new Int32Array(c);
    this.optPen = new Float64Array(c);
    this.optLen = new Int32Array(c);
    this.opt = new Float64Array(7 * c);
  }
}
