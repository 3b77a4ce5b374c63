import { labelComponents } from '../raster/components.ts';
import type { StripRaster } from '../raster/raster.ts';

/**
 * Resampling onto a working raster coarser than the drawing loses metal thinner than a working
 * pixel: a bar one drawing pixel wide between two openings falls under the 50 % threshold, and the
 * openings merge before any stage could see the bar (a 0.02 mm bar drawn at 0.018 mm a pixel came
 * back ready with its two windows one). So wherever two different openings of the drawing (or an
 * opening and the air around the piece) meet on the working raster, the pixel between them is
 * made metal again: a bar one working pixel wide, which framing then widens to the floor
 * (NECK_THICKENED) or refuses (NECK_TOO_THIN), as it does any bar drawn under the floor.
 *
 * `crop` is the kept drawing (`Regions.keep`: shades, at least 128 metal), `bw` x `bh`, as the raster
 * was resampled from.
 * Returns the raster with those pixels made metal (a copy; the input itself when there are none)
 * and how many they are. A raster finer than the drawing keeps every straight drawn bar (linear
 * upsampling keeps a one-pixel line at half its height), but not where two openings of the drawing
 * meet only at a corner, metal touching metal diagonally between them (the contract's metal is
 * 8-connected): read between the pixels, the two openings run into one there.
 */
export function keepSeparations(
  raster: StripRaster,
  crop: Uint8Array,
  bw: number,
  bh: number,
): { raster: StripRaster; restored: number } {
  const { w, h } = raster;
  const unchanged = { raster, restored: 0 };
  // Enlarged, the drawing's openings meet only where two of its air pixels touch at a corner.
  if (bw <= w && bh <= h && !hasAirCorners(crop, bw, bh)) return unchanged;
  const drawn = labelComponents(airOf(crop), bw, bh, 4);
  if (drawn.count < 2) return unchanged;
  // Copied when the first pixel is restored: until then the copy would equal the input.
  let data = raster.data;
  const sourceOf = drawnAirAtCentres(drawn, w, h, bw, bh);
  // Two pieces of outside air (the corners beside a pointed end) are no separation worth keeping.
  const separate = (a: number, b: number): boolean =>
    a !== 0 && b !== 0 && a !== b && !(drawn.touchesBorder[a] && drawn.touchesBorder[b]);
  let restored = 0;
  const restore = (i: number): void => {
    if (data === raster.data) data = data.slice();
    data[i] = 1;
    sourceOf[i] = 0;
    restored++;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (data[i]) continue;
      const a = sourceOf[i]!;
      if (a === 0) {
        // Its centre fell on drawn metal: it stands between whatever drawn air lies around it.
        let seen = 0;
        for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
          if (j < 0 || data[j]) continue;
          const b = sourceOf[j]!;
          if (separate(seen, b)) {
            restore(i);
            break;
          }
          if (b !== 0) seen = b;
        }
        continue;
      }
      if (x < w - 1 && !data[i + 1] && separate(a, sourceOf[i + 1]!)) restore(i + 1);
      if (y < h - 1 && !data[i + w] && separate(a, sourceOf[i + w]!)) restore(i + w);
    }
  }
  return restored === 0 ? unchanged : { raster: { ...raster, data }, restored };
}

/** The drawn air component under each working pixel's centre (0 on drawn metal), row by row along the runs. */
function drawnAirAtCentres(
  drawn: ReturnType<typeof labelComponents>,
  w: number,
  h: number,
  bw: number,
  bh: number,
): Int32Array {
  const out = new Int32Array(w * h);
  const { start, end, label, rowFirst } = drawn.runs;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(bh - 1, Math.floor(((y + 0.5) * bh) / h));
    let r = rowFirst[sy]!;
    const last = rowFirst[sy + 1]!;
    for (let x = 0; x < w; x++) {
      const s = sy * bw + Math.min(bw - 1, Math.floor(((x + 0.5) * bw) / w));
      while (r < last && end[r]! <= s) r++;
      if (r < last && start[r]! <= s) out[y * w + x] = label[r]!;
    }
  }
  return out;
}

/** Whether two air pixels of the kept drawing touch only at a corner (a 2 x 2 block of air on one diagonal, metal on the other). */
function hasAirCorners(crop: Uint8Array, bw: number, bh: number): boolean {
  for (let y = 0; y + 1 < bh; y++) {
    // The block's left column is the last block's right column, read once.
    let a = crop[y * bw]! >>> 7;
    let c = crop[y * bw + bw]! >>> 7;
    for (let x = 0; x + 1 < bw; x++) {
      const i = y * bw + x;
      const b = crop[i + 1]! >>> 7;
      const d = crop[i + bw + 1]! >>> 7;
      if (a !== c && a === d && b === c) return true;
      a = b;
      c = d;
    }
  }
  return false;
}

/** 1 where the kept drawing is air (a shade under 128). */
function airOf(crop: Uint8Array): Uint8Array {
  const air = new Uint8Array(crop.length);
  for (let i = 0; i < crop.length; i++) air[i] = (crop[i]! >>> 7) ^ 1;
  return air;
}

/**
 * Where two metal pixels of the working raster touch only at a corner (a 2 x 2 block of metal on one
 * diagonal, air on the other), the air pixel nearer metal in the drawing (the higher shade) is made
 * metal too. The contract's metal is 8-connected and so is what potrace traces around, but the stages
 * count metal 4-connected: a bar one drawing pixel wide running diagonally, enlarged onto the finer
 * working raster, came apart at every step into islands, which were bridged or removed, and its two
 * openings ran into one. Returns the raster with them joined (a copy; the input itself when there
 * are none) and how many pixels it made metal.
 */
export function joinDiagonalMetal(raster: StripRaster): { raster: StripRaster; joined: number } {
  const { w, h, shade } = raster;
  let data = raster.data;
  let joined = 0;
  const fill = (i: number): void => {
    if (data === raster.data) data = data.slice();
    data[i] = 1;
    joined++;
  };
  const nearer = (a: number, b: number): number => (shade && shade[b]! > shade[a]! ? b : a);
  for (let y = 0; y + 1 < h; y++) {
    // The 2 x 2 block's left column is the last block's right column, read once.
    let a = data[y * w]!;
    let c = data[y * w + w]!;
    for (let x = 0; x + 1 < w; x++) {
      const i = y * w + x;
      let b = data[i + 1]!;
      let d = data[i + w + 1]!;
      // Corners alone touch where each column and the top row change (most blocks are all one).
      if (a !== c && b !== d && a !== b) {
        if (a) fill(nearer(i + 1, i + w));
        else fill(nearer(i, i + w + 1));
        b = data[i + 1]!;
        d = data[i + w + 1]!;
      }
      a = b;
      c = d;
    }
  }
  return joined === 0 ? { raster, joined } : { raster: { ...raster, data }, joined };
}
