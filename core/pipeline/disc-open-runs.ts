/**
 * `openByDisc` for a sparse mask (the air of a strip: a few percent of its pixels), working on
 * the mask's runs only: the same exact predicates as the dense version, at a cost proportional
 * to the mask rather than the raster.
 *
 * Erosion: pixels off the mask are features (column distance 0), so column distances only
 * need computing on the mask's pixels, and a run's neighbours off the mask rule out the
 * pixels within depth - 1 of its ends: only runs at least 2 * depth - 1 long have a core, and
 * only their own columns can rule out anything else in them. Dilation: each run of the core
 * stamps, on each row within depth - 1, the span of pixels within depth - 0.5 of it.
 */
export function openByDiscRuns(
  mask: Uint8Array,
  w: number,
  h: number,
  depth: number,
  outsideIsComplement: boolean,
  runs: MaskRuns,
): Uint8Array {
  const n = w * h;
  const reach = depth - 1;
  const beyond = outsideIsComplement ? 0 : depth;
  const col = new Uint8Array(n);
  for (let y = 0; y < h; y++) {
    for (let r = runs.rowStart[y]!; r < runs.rowStart[y + 1]!; r++) {
      for (let i = y * w + runs.start[r]!; i < y * w + runs.end[r]!; i++) {
        const up = y > 0 ? col[i - w]! : beyond;
        col[i] = up < depth ? up + 1 : depth;
      }
    }
  }
  // Largest |dx| a column at distance c rules out (c < depth: c^2 + dx^2 < depth^2).
  const outOfCore = new Int32Array(depth + 1).fill(-depth - 1);
  for (let c = 0; c < depth; c++) outOfCore[c] = Math.ceil(Math.sqrt(depth * depth - c * c)) - 1;
  const core = new Uint8Array(n);
  const coreRuns: number[] = [];
  for (let y = h - 1; y >= 0; y--) {
    const row = y * w;
    for (let r = runs.rowStart[y]!; r < runs.rowStart[y + 1]!; r++) {
      const s = runs.start[r]!;
      const e = runs.end[r]!;
      for (let i = row + s; i < row + e; i++) {
        const below = (y < h - 1 ? col[i + w]! : beyond) + 1;
        if (below < col[i]!) col[i] = below;
      }
      // Pixels ruled out by the features (or the outside) just before and after the run.
      const lo = s > 0 || outsideIsComplement ? s + reach : s;
      const hi = e < w || outsideIsComplement ? e - 1 - reach : e - 1;
      if (lo > hi) continue;
      let from = w;
      for (let x = e - 1; x >= s; x--) {
        const q = x - outOfCore[col[row + x]!]!;
        if (q < from) from = q;
        core[row + x] = from <= x ? 0 : 1;
      }
      let to = -1;
      let open = -1;
      for (let x = s; x < e; x++) {
        const q = x + outOfCore[col[row + x]!]!;
        if (q > to) to = q;
        const inCore = core[row + x] && to < x && x >= lo && x <= hi;
        core[row + x] = inCore ? 1 : 0;
        if (inCore && open < 0) open = x;
        if (!inCore && open >= 0) {
          coreRuns.push(y, open, x);
          open = -1;
        }
      }
      if (open >= 0) coreRuns.push(y, open, e);
    }
  }
  const opened = new Uint8Array(n);
  if (coreRuns.length === 0) return opened;
  // Within depth - 0.5 of a core pixel: dx^2 + dy^2 <= depth^2 - depth.
  const covered = new Uint8Array(n);
  const limit = depth * depth - depth;
  for (let c = 0; c < coreRuns.length; c += 3) {
    const y = coreRuns[c]!;
    const a = coreRuns[c + 1]!;
    const b = coreRuns[c + 2]!;
    for (let dy = -reach; dy <= reach; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      const m = Math.floor(Math.sqrt(limit - dy * dy));
      covered.fill(1, yy * w + Math.max(0, a - m), yy * w + Math.min(w, b + m));
    }
  }
  for (let y = 0; y < h; y++) {
    for (let r = runs.rowStart[y]!; r < runs.rowStart[y + 1]!; r++) {
      const from = y * w + runs.start[r]!;
      const to = y * w + runs.end[r]!;
      opened.set(covered.subarray(from, to), from);
    }
  }
  return opened;
}

/** The runs of set pixels of a mask, row by row: runs rowStart[y] .. rowStart[y + 1] - 1. */
export interface MaskRuns {
  rowStart: Int32Array;
  start: Int32Array;
  end: Int32Array;
  pixels: number;
}

/** The mask's runs, or undefined as soon as it has more than `maxPixels` set pixels. */
export function sparseRuns(mask: Uint8Array, w: number, h: number, maxPixels: number): MaskRuns | undefined {
  const rowStart = new Int32Array(h + 1);
  let start = new Int32Array(1024);
  let end = new Int32Array(1024);
  let count = 0;
  let pixels = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    rowStart[y] = count;
    let x = 0;
    while (x < w) {
      while (x < w && !mask[row + x]) x++;
      if (x === w) break;
      const s = x;
      while (x < w && mask[row + x]) x++;
      pixels += x - s;
      if (pixels > maxPixels) return undefined;
      if (count === start.length) {
        const grownStart = new Int32Array(count * 2);
        const grownEnd = new Int32Array(count * 2);
        grownStart.set(start);
        grownEnd.set(end);
        start = grownStart;
        end = grownEnd;
      }
      start[count] = s;
      end[count] = x;
      count++;
    }
  }
  rowStart[h] = count;
  return { rowStart, start, end, pixels };
}
