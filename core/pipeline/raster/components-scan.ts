import type { Labels } from './components.ts';
import { RunFinder } from './runs.ts';

/**
 * Two-pass connected-component labelling over runs, with union-find (path halving). The first
 * scan finds each row's runs of "on" pixels and gives each run the label of the runs it touches
 * in the row above (recording equivalences) or a new one; the second resolves each run's label
 * and writes it once over the run. Work per run rather than per pixel: on the pipeline's rasters
 * (long runs of metal or air) this is several times faster than labelling pixel by pixel.
 *
 * Components are numbered from 1 in the order of their first pixel in raster order: a
 * component's first run always starts a new provisional label, union keeps the smaller label as
 * the root, so roots are numbered in that order. No per-pixel label array is made (a full-size
 * Int32Array per labelling was most of the pipeline's garbage): `labelAt` reads the runs.
 */
export function scanLabels(on: Uint8Array, w: number, h: number, connectivity: 4 | 8): Labels {
  let parent: Int32Array = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  const union = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    if (ra < rb) {
      parent[rb] = ra;
      return ra;
    }
    parent[ra] = rb;
    return rb;
  };
  // Every run of the raster, in raster order: start and end as raster indices, provisional label.
  let runStart: Int32Array = new Int32Array(4096);
  let runEnd: Int32Array = new Int32Array(4096);
  let runLabel: Int32Array = new Int32Array(4096);
  let runs = 0;
  const finder = new RunFinder(on);
  // A run above touches [s, e) when it overlaps [s - reach, e + reach): diagonal contact counts
  // for 8-connectivity.
  const reach = connectivity === 8 ? 1 : 0;
  let prevFrom = 0;
  let prevTo = 0;
  const rowFirst = new Int32Array(h + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const rowEnd = row + w;
    const from = runs;
    rowFirst[y] = runs;
    let j = prevFrom;
    let x = row;
    while (x < rowEnd) {
      const s = finder.nextOn(x, rowEnd);
      if (s === rowEnd) break;
      x = finder.nextOff(s, rowEnd);
      // Positions of the row above are one raster row back.
      const lo = s - w - reach;
      const hi = x - w + reach;
      // Runs above that end before this one cannot touch any later run of this row either.
      while (j < prevTo && runEnd[j]! <= lo) j++;
      let l = 0;
      for (let k = j; k < prevTo && runStart[k]! < hi; k++) l = l ? union(l, runLabel[k]!) : runLabel[k]!;
      if (!l) {
        if (next >= parent.length) parent = grown(parent);
        parent[next] = next;
        l = next++;
      }
      if (runs === runStart.length) {
        runStart = grown(runStart);
        runEnd = grown(runEnd);
        runLabel = grown(runLabel);
      }
      runStart[runs] = s;
      runEnd[runs] = x;
      runLabel[runs] = l;
      runs++;
    }
    prevFrom = from;
    prevTo = runs;
  }
  rowFirst[h] = runs;
  // Resolve provisional labels to compact final ones, numbered in scan order.
  const final = new Int32Array(next);
  let count = 0;
  for (let l = 1; l < next; l++) {
    const r = find(l);
    if (r === l) final[l] = ++count;
  }
  for (let l = 1; l < next; l++) final[l] = final[find(l)]!;
  const size = new Int32Array(count + 1);
  const touchesBorder = new Uint8Array(count + 1);
  const first = new Int32Array(count + 1);
  const lastRow = (h - 1) * w;
  for (let r = 0; r < runs; r++) {
    const s = runStart[r]!;
    const e = runEnd[r]!;
    const k = final[runLabel[r]!]!;
    runLabel[r] = k;
    if (size[k] === 0) first[k] = s;
    size[k] = size[k]! + (e - s);
    if (s < w || s >= lastRow || s % w === 0 || e % w === 0) touchesBorder[k] = 1;
  }
  const runList = {
    start: runStart.subarray(0, runs),
    end: runEnd.subarray(0, runs),
    label: runLabel.subarray(0, runs),
    rowFirst,
  };
  return { w, count, size, touchesBorder, first, runs: runList };
}

function grown(a: Int32Array): Int32Array {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}
