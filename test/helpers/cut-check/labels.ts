/**
 * Connected components of a raster, labelled run by run: each row is cut into runs of the value
 * (found with the native `indexOf`), a run is joined (union-find) to the runs of the row above it
 * overlaps, and labels are written a run at a time with `fill`. Rows of a strip hold a few long
 * runs, so this costs little more than reading the raster once.
 */

export interface Components {
  /** Component of each pixel, 0 … count-1 in the order their first pixel is met row by row; -1 off the set. */
  labels: Int32Array;
  count: number;
}

/**
 * Labels the pixels whose value is `value` (of a raster of 0s and 1s) into 4- or 8-connected
 * components, numbered in the order their first pixel is met scanning rows top-down, left to right;
 * the labels go into `into` when given (a scratch array of nx × ny, overwritten).
 */
export function labelComponents(
  values: Uint8Array,
  value: number,
  nx: number,
  ny: number,
  connectivity: 4 | 8 = 4,
  into?: Int32Array,
): Components {
  const reach = connectivity === 8 ? 1 : 0; // how far a run reaches sideways into the row above
  // Runs: first pixel index, end (exclusive), and the union-find parent of their provisional label.
  let starts = new Int32Array(1024);
  let ends = new Int32Array(1024);
  let parent = new Int32Array(1024);
  let runs = 0;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  let above = 0; // first run of the previous row
  for (let j = 0; j < ny; j++) {
    const rowStart = j * nx;
    const first = runs;
    // Searches stay within the row: indexOf on the whole raster would run on to later rows.
    const row = values.subarray(rowStart, rowStart + nx);
    let at = 0;
    let t = above; // runs of the row above, scanned along with this row's runs
    while (at < nx) {
      const from = row.indexOf(value, at);
      if (from < 0) break;
      let to = row.indexOf(value === 0 ? 1 : 0, from);
      if (to < 0) to = nx;
      const start = rowStart + from;
      const end = rowStart + to;
      if (runs === starts.length) {
        starts = grow(starts);
        ends = grow(ends);
        parent = grow(parent);
      }
      const run = runs++;
      starts[run] = start;
      ends[run] = end;
      parent[run] = run;
      // Overlap with the runs above: columns [start - reach, end + reach) shifted up a row.
      const lo = start - nx - reach;
      const hi = end - nx + reach;
      while (t < first && ends[t]! <= lo) t++;
      for (let u = t; u < first && starts[u]! < hi; u++) {
        const ra = find(run);
        const rb = find(u);
        // The smaller root wins so the final numbering follows the scan order.
        if (ra < rb) parent[rb] = ra;
        else if (rb < ra) parent[ra] = rb;
      }
      at = to;
    }
    above = first;
  }
  const labels = (into ?? new Int32Array(nx * ny)).fill(-1);
  const final = new Int32Array(runs).fill(-1);
  let count = 0;
  for (let run = 0; run < runs; run++) {
    const root = find(run);
    if (final[root] === -1) final[root] = count++;
    labels.fill(final[root]!, starts[run]!, ends[run]!);
  }
  return { labels, count };
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * Sampling pixel centres, the apex of a sharp corner can leave one or two pixels that touch the rest
 * of their cut (or of their metal) only at a pixel's corner: part of it, not an opening or a piece
 * of its own (the file's rings are measured exactly by the polygon rules, which would find two rings
 * touching). Such a component, of at most `CORNER_PIXELS` pixels diagonal to a larger one, joins
 * it; component 0 (the outside, for air) never moves. The labels are renumbered in order.
 */
export function joinCornerPixels(labels: Int32Array, count: number, nx: number): { labels: Int32Array; count: number } {
  const size = new Int32Array(count);
  for (let k = 0; k < labels.length; k++) {
    const label = labels[k]!;
    if (label >= 0) size[label]!++;
  }
  // Most rasters have no component this small: nothing to look for then.
  if (!size.some((n, label) => label > 0 && n <= CORNER_PIXELS)) return { labels, count };
  const into = Int32Array.from({ length: count }, (_, n) => n);
  for (let k = nx + 1; k < labels.length - nx - 1; k++) {
    const label = labels[k]!;
    if (label <= 0 || size[label]! > CORNER_PIXELS || into[label] !== label) continue;
    for (const d of [-nx - 1, -nx + 1, nx - 1, nx + 1]) {
      const other = labels[k + d]!;
      if (other >= 0 && other !== label && size[other]! > CORNER_PIXELS) {
        into[label] = other;
        break;
      }
    }
  }
  if (into.every((n, i) => n === i)) return { labels, count };
  // Renumber what is left in order, so that the outside stays 0 and openings stay 1…
  const renumber = new Int32Array(count).fill(-1);
  let next = 0;
  for (let n = 0; n < count; n++) if (into[n] === n) renumber[n] = next++;
  const out = labels.map((label) => (label < 0 ? label : renumber[into[label]!]!));
  return { labels: out, count: next };
}

/** Air components at most this big that touch a larger one at a pixel's corner are part of it. */
const CORNER_PIXELS = 2;
