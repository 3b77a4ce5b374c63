/**
 * Widths read off a raster. Every pixel is a sample at its centre, so the boundary between a
 * pixel and its neighbour of the other phase lies somewhere between their centres. The distance
 * from a pixel centre to the nearest centre of the other phase therefore overshoots the distance to
 * the boundary by about half a pixel on average (0 to 1 pixel), and a gap between two centres of
 * the other phase facing each other across a part overshoots the part's width by about a pixel
 * (0 to 2). The estimates below take that average off, measured along the direction of the gap:
 * for pixels dx × dy, a pixel's extent along the unit vector u is hypot(ux·dx, uy·dy).
 */
import type { Grid } from './types.ts';

/** The extent of one pixel along the vector (vx, vy) in mm: dx along x, dy along y, between them otherwise. */
export function pixelSpan(grid: Grid, vx: number, vy: number): number {
  const lengthSq = vx * vx + vy * vy;
  if (lengthSq === 0) return Math.max(grid.dx, grid.dy);
  // Math.hypot is several times slower than this in V8, and it runs once per pixel.
  return Math.sqrt((vx * vx * grid.dx * grid.dx + vy * vy * grid.dy * grid.dy) / lengthSq);
}

/** The strip position (mm) of grid pixel k's centre. */
export function centreOf(grid: Grid, k: number): { x: number; y: number } {
  const i = k % grid.nx;
  const j = (k - i) / grid.nx;
  return { x: (i - grid.pad + 0.5) * grid.dx, y: (j - grid.pad + 0.5) * grid.dy };
}

/** The strip position of pixel k's centre, moved onto the rectangle [0, L] × [0, W] if it lies beyond it. */
export function placeOf(grid: Grid, k: number): { x: number; y: number } {
  const { x, y } = centreOf(grid, k);
  return { x: Math.min(grid.lengthMm, Math.max(0, x)), y: Math.min(grid.widthMm, Math.max(0, y)) };
}

/** Width of a part estimated from the two centres of the other phase facing each other across it, a and b. */
export function widthAcross(grid: Grid, a: number, b: number): number {
  const ia = a % grid.nx;
  const ib = b % grid.nx;
  const vx = (ib - ia) * grid.dx;
  const vy = ((b - ib) / grid.nx - (a - ia) / grid.nx) * grid.dy;
  return Math.sqrt(vx * vx + vy * vy) - pixelSpan(grid, vx, vy);
}

/**
 * Replaces, in place, each squared distance (mm²) of a pixel of `phase` to the other phase by its
 * half-width estimate: the distance to the boundary, i.e. the centre distance less half a pixel
 * along the way to the nearest other-phase centre. Other pixels get 0. Returns the same array.
 */
export function halfWidthsInPlace(grid: Grid, phase: number, sq: Float32Array, nearest: Int32Array): Float32Array {
  const { nx, metal, dx, dy } = grid;
  const square = dx === dy;
  for (let k = 0; k < sq.length; k++) {
    if (metal[k] !== phase) {
      sq[k] = 0;
      continue;
    }
    const f = nearest[k]!;
    const d = Math.sqrt(sq[k]!);
    if (f < 0) {
      sq[k] = d; // no other phase anywhere: Infinity
      continue;
    }
    if (square) {
      sq[k] = d - dx / 2;
      continue;
    }
    const i = k % nx;
    const fi = f % nx;
    sq[k] = d - pixelSpan(grid, (fi - i) * dx, ((f - fi) / nx - (k - i) / nx) * dy) / 2;
  }
  return sq;
}

/**
 * The width of the part of `phase` through pixel k: the largest gap between the nearest
 * other-phase centre of k and that of one of its eight neighbours (an other-phase neighbour is its
 * own nearest), less one pixel. On a part's middle line this is the gap straight across it: some
 * neighbour lies across the line whatever its direction, and a neighbour's nearest centre lies
 * at most a pixel or two along the part from k's, which lengthens the gap by a negligible
 * (2ρ)²/(2·width).
 */
export function localWidth(grid: Grid, phase: number, nearest: Int32Array, k: number): number {
  const { nx, ny, metal } = grid;
  const own = metal[k] === phase ? nearest[k]! : k;
  if (own < 0) return Infinity;
  const i = k % nx;
  const j = (k - i) / nx;
  let widest = -Infinity;
  for (let dj = -1; dj <= 1; dj++) {
    for (let di = -1; di <= 1; di++) {
      if ((di === 0 && dj === 0) || i + di < 0 || i + di >= nx || j + dj < 0 || j + dj >= ny) continue;
      const q = k + dj * nx + di;
      const other = metal[q] === phase ? nearest[q]! : q;
      if (other >= 0 && other !== own) widest = Math.max(widest, widthAcross(grid, own, other));
    }
  }
  if (widest > -Infinity) return widest;
  // All neighbours share k's nearest centre (the tip of a part): twice k's own distance to it.
  const ik = own % nx;
  const vx = (ik - i) * grid.dx;
  const vy = ((own - ik) / nx - j) * grid.dy;
  return 2 * Math.sqrt(vx * vx + vy * vy) - pixelSpan(grid, vx, vy);
}

/**
 * The width of the part of `phase` where it is narrowest across pixel k: the shortest gap between
 * two other-phase centres facing each other across k, less one pixel. The candidates are the
 * nearest other-phase centres of k and of its eight neighbours (an other-phase pixel is its own);
 * a pair faces across k when the segment between them passes within half a pixel of k's centre
 * over pixels of `phase` alone. Such a segment spans the part, so the estimate is at least the
 * part's width there less a pixel, as `widthAcross` is. It measures a join of two cores, where
 * `localWidth`'s widest gap would span the wider part just beyond a pinch a pixel or two long.
 * Infinity when no pair faces across k (k off the middle of a part wider than a few pixels).
 */
export function narrowestAcross(grid: Grid, phase: number, nearest: Int32Array, k: number): number {
  const { nx, ny, metal } = grid;
  const i = k % nx;
  const j = (k - i) / nx;
  const ends: number[] = [];
  for (let dj = -1; dj <= 1; dj++) {
    for (let di = -1; di <= 1; di++) {
      if (i + di < 0 || i + di >= nx || j + dj < 0 || j + dj >= ny) continue;
      const q = k + dj * nx + di;
      const end = metal[q] === phase ? nearest[q]! : q;
      if (end >= 0 && !ends.includes(end)) ends.push(end);
    }
  }
  let narrowest = Infinity;
  for (let a = 0; a < ends.length; a++) {
    for (let b = a + 1; b < ends.length; b++) {
      if (!facesAcross(grid, phase, ends[a]!, ends[b]!, i, j)) continue;
      narrowest = Math.min(narrowest, widthAcross(grid, ends[a]!, ends[b]!));
    }
  }
  return narrowest;
}

/** Whether the segment between other-phase centres a and b passes through pixel (i, j) over `phase` alone. */
function facesAcross(grid: Grid, phase: number, a: number, b: number, i: number, j: number): boolean {
  const { nx, metal } = grid;
  const ia = a % nx;
  const ja = (a - ia) / nx;
  const ib = b % nx;
  const jb = (b - ib) / nx;
  // In pixel units, the segment's closest approach to (i, j) is within half a pixel of it: a segment
  // merely clipping a corner of the pixel joins two pixels beside that corner, no gap across the part.
  const vx = ib - ia;
  const vy = jb - ja;
  const t = Math.max(0, Math.min(1, ((i - ia) * vx + (j - ja) * vy) / (vx * vx + vy * vy)));
  if ((ia + t * vx - i) ** 2 + (ja + t * vy - j) ** 2 > 0.25) return false;
  // Every pixel the open segment meets, sampled at least twice a pixel, is of the phase.
  const steps = 2 * Math.max(Math.abs(vx), Math.abs(vy));
  for (let s = 1; s < steps; s++) {
    const q = Math.round(ja + (s / steps) * vy) * nx + Math.round(ia + (s / steps) * vx);
    if (q !== a && q !== b && metal[q] !== phase) return false;
  }
  return true;
}
