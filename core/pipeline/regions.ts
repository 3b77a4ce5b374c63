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

  // Air around the piece, 4-connected (the dual of 8-connected ink): the part reaching the
  // image border is outside; the rest are the piece's openings.
  const notPiece = new Uint8Array(w * h);
  for (let i = 0; i < notPiece.length; i++) notPiece[i] = ink.label[i] === piece ? 0 : 1;
  const around = labelComponents(notPiece, w, h, 4);

  const keep = new Uint8Array(w * h);
  const kept = new Uint8Array(ink.count + 1);
  kept[piece] = 1;
  for (let i = 0; i < keep.length; i++) {
    const k = ink.label[i]!;
    if (k && k !== piece && !around.touchesBorder[around.label[i]!]) kept[k] = 1;
  }
  let box = { x0: w, y0: h, x1: -1, y1: -1 };
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
    if (k === piece) {
      const x = i % w;
      const y = (i - x) / w;
      if (x < box.x0) box = { ...box, x0: x };
      if (x > box.x1) box.x1 = x;
      if (y < box.y0) box.y0 = y;
      if (y > box.y1) box.y1 = y;
    }
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
