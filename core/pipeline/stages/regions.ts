import { labelComponents, type Labels } from '../raster/components.ts';

export interface Regions {
  /**
   * The piece and the islands inside its openings (what framing works with), cropped to the
   * piece's box, row by row, as shades the resampler reads: 255 less the drawing's luminance (at
   * least 128 is metal), 0 on the ink regions that are dropped. Without the luminance: 255 for kept
   * ink, 0 otherwise.
   */
  keep: Uint8Array;
  /** Bounding box of the piece in source pixels, inclusive. */
  box: { x0: number; y0: number; x1: number; y1: number };
  droppedRegions: number;
  droppedShare: number;
  islands: number;
}

// States of a pixel of the piece's box while the outside is found (0: the piece).
const INSIDE = 1;
const OUTSIDE = 2;

/**
 * Decisions §4 step 2: the largest 8-connected ink region is the piece; other regions inside
 * its outline (in its openings) are islands, kept for framing; regions outside it are dropped.
 */
export function findRegions(metal: Uint8Array, w: number, h: number, lum?: Uint8Array): Regions {
  const ink = labelComponents(metal, w, h, 8);
  let piece = 1;
  for (let k = 2; k <= ink.count; k++) if (ink.size[k]! > ink.size[piece]!) piece = k;

  const box = pieceBox(ink, piece, w, h);
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  // No piece only when there is no ink at all.
  if (!(bw > 0 && bh > 0)) return { keep: new Uint8Array(0), box, droppedRegions: 0, droppedShare: 0, islands: 0 };

  // Air around the piece, 4-connected (the dual of 8-connected ink): what reaches the image
  // border is outside, the rest are the piece's openings. Everything beyond the piece's box is
  // outside, so air reaches the image border exactly when it reaches the box's border: a flood
  // fill from the box's border into one byte per box pixel finds it, with no second labelling.
  // Another ink region is one 8-connected whole that the piece does not touch, so it lies
  // entirely inside or entirely outside. Both passes go run by run, clipped to the box.
  const { start, end, label } = ink.runs;
  const inBox = (r: number, each: (from: number, to: number) => void): void => {
    const y = Math.floor(start[r]! / w);
    if (y < box.y0 || y > box.y1) return;
    const s = Math.max(start[r]! - y * w, box.x0);
    const e = Math.min(end[r]! - y * w, box.x1 + 1);
    const row = (y - box.y0) * bw - box.x0;
    if (s < e) each(row + s, row + e);
  };
  const state = new Uint8Array(bw * bh).fill(INSIDE);
  for (let r = 0; r < label.length; r++) if (label[r] === piece) inBox(r, (from, to) => state.fill(0, from, to));
  fillOutside(state, bw, bh);

  const kept = new Uint8Array(ink.count + 1);
  kept[piece] = 1;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (k !== piece && !kept[k]) inBox(r, (from) => (kept[k] = state[from] === INSIDE ? 1 : 0));
  }
  // The state array becomes the kept crop, in place: the drawing's shades (the grey of its
  // anti-aliased edges places them between pixels), less the dropped ink.
  if (lum) {
    for (let y = 0; y < bh; y++) {
      const row = (y + box.y0) * w + box.x0;
      for (let x = 0; x < bw; x++) state[y * bw + x] = 255 - lum[row + x]!;
    }
    for (let r = 0; r < label.length; r++) if (!kept[label[r]!]) inBox(r, (from, to) => state.fill(0, from, to));
  } else {
    state.fill(0);
    for (let r = 0; r < label.length; r++) if (kept[label[r]!]) inBox(r, (from, to) => state.fill(255, from, to));
  }
  let droppedInk = 0;
  let totalInk = 0;
  let islands = 0;
  let dropped = 0;
  for (let k = 1; k <= ink.count; k++) {
    totalInk += ink.size[k]!;
    if (!kept[k]) {
      droppedInk += ink.size[k]!;
      dropped++;
    } else if (k !== piece) islands++;
  }
  return { keep: state, box, droppedRegions: dropped, droppedShare: totalInk ? droppedInk / totalInk : 0, islands };
}

/**
 * Marks OUTSIDE every INSIDE pixel 4-connected to the border through INSIDE pixels: a scanline
 * fill (each seed fills its whole run, then seeds the runs it touches above and below), whose
 * stack holds run starts rather than pixels.
 */
function fillOutside(state: Uint8Array, w: number, h: number): void {
  let stack = new Int32Array(1024);
  let top = 0;
  const push = (i: number): void => {
    if (top === stack.length) {
      const grown = new Int32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[top++] = i;
  };
  for (let x = 0; x < w; x++) {
    push(x);
    push((h - 1) * w + x);
  }
  for (let y = 1; y < h - 1; y++) {
    push(y * w);
    push(y * w + w - 1);
  }
  while (top > 0) {
    const i = stack[--top]!;
    if (state[i] !== INSIDE) continue;
    const y = (i / w) | 0;
    const row = y * w;
    let l = i;
    let r = i + 1;
    while (l > row && state[l - 1] === INSIDE) l--;
    while (r < row + w && state[r] === INSIDE) r++;
    state.fill(OUTSIDE, l, r);
    for (const n of [row - w, row + w]) {
      if (n < 0 || n >= state.length) continue;
      // One seed per run of INSIDE pixels along [l, r) in the neighbouring row.
      for (let x = l - row; x < r - row; x++) {
        if (state[n + x] === INSIDE && (x === l - row || state[n + x - 1] !== INSIDE)) push(n + x);
      }
    }
  }
}

/** Bounding box of component k, inclusive ({ x0: w, y0: h, x1: -1, y1: -1 } when it has no pixel). */
function pieceBox(ink: Labels, k: number, w: number, h: number): Regions['box'] {
  const box = { x0: w, y0: h, x1: -1, y1: -1 };
  const { start, end, label } = ink.runs;
  for (let r = 0; r < label.length; r++) {
    if (label[r] !== k) continue;
    const y = Math.floor(start[r]! / w);
    const x0 = start[r]! - y * w;
    const x1 = end[r]! - 1 - y * w;
    if (x0 < box.x0) box.x0 = x0;
    if (x1 > box.x1) box.x1 = x1;
    if (y < box.y0) box.y0 = y;
    if (y > box.y1) box.y1 = y;
  }
  return box;
}
