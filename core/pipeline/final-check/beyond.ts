import { facingChord, side, SQUARE_SLACK, squareEnds } from './chord-geometry.ts';
import { cellOf } from './segment-grid.ts';
import { keep, measureChord, plainTip, type Search } from './width-search.ts';

/*
 * The width search beyond the check's reach (see `measureWidths`): metal wider than the floor, up
 * to the narrowest width kept so far. Above the floor a chord counts only square to the walls, so
 * from each vertex only the cells in the directions square to its wall (into the metal) are looked
 * at: a few cells a vertex, where the ring of cells around it is dozens.
 */

/**
 * Metal chords from vertex k at least the check's reach long (shorter ones are the check's) and
 * narrower than the narrowest metal kept, square to the wall at k. `mark` tells this pass's
 * visits in `seenBy`.
 */
export function visitBeyond(search: Search, k: number, mark: number): void {
  const { set, grid, seenBy } = search;
  const { xs, ys, next, prev, ringOf } = set;
  const { cellSize, cols, rows } = grid;
  const vx = xs[k]!;
  const vy = ys[k]!;
  const p = prev[k]!;
  const ax = vx - xs[p]!;
  const ay = vy - ys[p]!;
  const bx = xs[next[k]!]! - vx;
  const by = ys[next[k]!]! - vy;
  // The directions into the metal square to the wall at k: between the normals of its two edges
  // (a cone around their bisector m, half as wide as the wall's turn), widened by the slack.
  const la = Math.sqrt(ax * ax + ay * ay);
  const lb = Math.sqrt(bx * bx + by * by);
  if (la === 0 || lb === 0) return;
  let mx = -ay / la - by / lb;
  let my = ax / la + bx / lb;
  const m = Math.sqrt(mx * mx + my * my);
  // A spike has no inside.
  if (m < 1e-9) return;
  mx /= m;
  my /= m;
  const turn = Math.min(1, Math.max(-1, (ax * bx + ay * by) / (la * lb)));
  const halfCos = Math.sqrt((1 + turn) / 2);
  const halfSin = Math.sqrt((1 - turn) / 2);
  const cos = halfCos * COS_SLACK - halfSin * SIN_SLACK;
  const sin = halfSin * COS_SLACK + halfCos * SIN_SLACK;
  const reach = search.metalLimit;
  // The box of the cone's part of the ring from the check's reach r0 out to `reach`: its corners
  // (along the cone's two edge rays), and the end of any axis direction inside the cone (every
  // direction when the cone is wider than a half plane).
  let x0 = -reach;
  let y0 = -reach;
  let x1 = reach;
  let y1 = reach;
  if (cos > 0) {
    const ax1 = mx * cos - my * sin;
    const ay1 = my * cos + mx * sin;
    const ax2 = mx * cos + my * sin;
    const ay2 = my * cos - mx * sin;
    const r0 = search.reach;
    x0 = Math.min(r0 * ax1, r0 * ax2, reach * ax1, reach * ax2, mx <= -cos ? -reach : Infinity);
    x1 = Math.max(r0 * ax1, r0 * ax2, reach * ax1, reach * ax2, mx >= cos ? reach : -Infinity);
    y0 = Math.min(r0 * ay1, r0 * ay2, reach * ay1, reach * ay2, my <= -cos ? -reach : Infinity);
    y1 = Math.max(r0 * ay1, r0 * ay2, reach * ay1, reach * ay2, my >= cos ? reach : -Infinity);
  }
  const cx0 = cellOf(grid, vx + x0, grid.x0, cols);
  const cx1 = cellOf(grid, vx + x1, grid.x0, cols);
  const cy0 = cellOf(grid, vy + y0, grid.y0, rows);
  const cy1 = cellOf(grid, vy + y1, grid.y0, rows);
  const corner = cellSize * Math.SQRT1_2;
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let cx = cx0; cx <= cx1; cx++) {
      const c = cy * cols + cx;
      if (grid.first[c] === grid.first[c + 1]) continue;
      // Cells that reach into the ring between the check's reach and the width searched for.
      const left = grid.x0 + cx * cellSize;
      const top = grid.y0 + cy * cellSize;
      const ex = vx < left ? left - vx : vx > left + cellSize ? vx - left - cellSize : 0;
      const ey = vy < top ? top - vy : vy > top + cellSize ? vy - top - cellSize : 0;
      if (ex * ex + ey * ey >= reach * reach) continue;
      const fx = Math.max(Math.abs(left - vx), Math.abs(left + cellSize - vx));
      const fy = Math.max(Math.abs(top - vy), Math.abs(top + cellSize - vy));
      if (fx * fx + fy * fy < search.reach2) continue;
      if (cos > 0 && !inCone(mx, my, cos, sin, left + cellSize / 2 - vx, top + cellSize / 2 - vy, corner)) continue;
      for (let e = grid.first[c]!; e < grid.first[c + 1]!; e++) {
        const s = grid.items[e]!;
        if (s === k || s === p || seenBy[s] === mark) continue;
        seenBy[s] = mark;
        const same = ringOf[s] === ringOf[k];
        const s1 = next[s]!;
        const dx = xs[s1]! - xs[s]!;
        const dy = ys[s1]! - ys[s]!;
        const len2 = dx * dx + dy * dy;
        if (len2 === 0) continue;
        let t = ((vx - xs[s]!) * dx + (vy - ys[s]!) * dy) / len2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const ux = xs[s]! + t * dx - vx;
        const uy = ys[s]! + t * dy - vy;
        const d2 = ux * ux + uy * uy;
        if (d2 >= search.metalLimit * search.metalLimit || d2 < search.reach2) continue;
        if (same) {
          // Two straight walls of one loop joined at their ends (a bar with square ends) meet
          // square only between their vertices.
          const facing = facingChord(set, k, s);
          const chord = facing && measureChord(search, k, facing[0], s, facing[1]);
          if (chord) keep(search, chord, false);
        }
        if (side(ax, ay, bx, by, ux, uy) <= 0 || !squareEnds(set, k, s, t, ux, uy)) continue;
        if (same && plainTip(search, k, s, t, Math.sqrt(d2), true)) continue;
        const chord = measureChord(search, k, 0, s, t);
        if (chord) keep(search, chord, false);
      }
    }
  }
}

const COS_SLACK = Math.cos(SQUARE_SLACK);
const SIN_SLACK = Math.sin(SQUARE_SLACK);

/**
 * Whether some point within `radius` of (dx, dy) lies in the cone of directions within an angle
 * (by its cosine and sine, the cosine positive) of the unit vector (mx, my), seen from its apex.
 */
function inCone(mx: number, my: number, cos: number, sin: number, dx: number, dy: number, radius: number): boolean {
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d <= radius) return true;
  // Within the cone's angle plus the angle the disc spans: cos(angle) >= cos(half + spread).
  const sinSpread = radius / d;
  const cosSpread = Math.sqrt(1 - sinSpread * sinSpread);
  return dx * mx + dy * my >= d * (cos * cosSpread - sin * sinSpread);
}
