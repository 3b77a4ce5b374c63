import { labelComponents } from './labels.ts';

export interface Regions {
  /** The piece and the islands inside its openings: what framing works with. */
  keep: Uint8Array;
  /** Bounding box of the piece in source pixels, inclusive. */
  box: { x0: number; y0: number; x1: number; y1: number };
  droppedRegions: number;
  droppedShare: number;
  islands: number;
}

/**
 * Decisions §4 step 2: the largest 8-connected ink region is the piece; other regions inside
 * its outline (in its openings) are islands, kept for framing; regions outside it are dropped.
 */
export function findRegions(metal: Uint8Array, w: number, h: number): Regions {
  const ink = labelComponents(metal, w, h, 8);
  let piece = 1;
  for (let k = 2; k <= ink.count; k++) if (ink.size[k]! > ink.size[piece]!) piece = k;

  const box = pieceBox(ink.label, piece, w, h);

  // Air around the piece, 4-connected (the dual of 8-connected ink): the part reaching the
  // image border is outside; the rest are the piece's openings. Only the piece's box needs
  // labelling: everything outside it is air reaching the border, so air reaches the image
  // border exactly when it reaches the box's border.
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const kept = new Uint8Array(ink.count + 1);
  kept[piece] = 1;
  if (bw > 0 && bh > 0) {
    const notPiece = new Uint8Array(bw * bh);
    for (let y = 0; y < bh; y++) {
      const row = (box.y0 + y) * w + box.x0;
      for (let x = 0; x < bw; x++) notPiece[y * bw + x] = ink.label[row + x] === piece ? 0 : 1;
    }
    const around = labelComponents(notPiece, bw, bh, 4);
    for (let y = 0; y < bh; y++) {
      const row = (box.y0 + y) * w + box.x0;
      for (let x = 0; x < bw; x++) {
        const k = ink.label[row + x]!;
        if (k && k !== piece && !around.touchesBorder[around.label[y * bw + x]!]) kept[k] = 1;
      }
    }
  }
  const keep = new Uint8Array(w * h);
  let droppedInk = 0;
  let totalInk = 0;
  for (let i = 0; i < keep.length; i++) {
    const k = ink.label[i]!;
    if (!k) continue;
    totalInk++;
    if (!kept[k]) {
      droppedInk++;
      continue;
    }
    keep[i] = 1;
  }
  let islands = 0;
  let dropped = 0;
  for (let k = 1; k <= ink.count; k++) {
    if (k === piece) continue;
    if (kept[k]) islands++;
    else dropped++;
  }
  return { keep, box, droppedRegions: dropped, droppedShare: totalInk ? droppedInk / totalInk : 0, islands };
}

/** Bounding box of component k, inclusive ({ x0: w, y0: h, x1: -1, y1: -1 } when it has no pixel). */
function pieceBox(label: Int32Array, k: number, w: number, h: number): Regions['box'] {
  const box = { x0: w, y0: h, x1: -1, y1: -1 };
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (label[row + x] !== k) continue;
      if (x < box.x0) box.x0 = x;
      if (x > box.x1) box.x1 = x;
      if (y < box.y0) box.y0 = y;
      if (y > box.y1) box.y1 = y;
    }
  }
  return box;
}
