/**
 * Two-pass connected-component labelling over runs, with union-find (path halving). The first
 * scan finds each row's runs of "on" pixels, gives each run the label of the runs it touches in
 * the row above (recording equivalences) or a new one, and writes it over the run; the second
 * resolves labels run by run. Work per run rather than per pixel: on the pipeline's rasters
 * (long runs of metal or air) this is several times faster than labelling pixel by pixel.
 *
 * Components are numbered from 1 in the order of their first pixel in raster order: a
 * component's first run always starts a new provisional label, union keeps the smaller label as
 * the root, so roots are numbered in that order.
 */
export function scanLabels(
  on: Uint8Array,
  w: number,
  h: number,
  connectivity: 4 | 8,
): { label: Int32Array; count: number; size: Int32Array; touchesBorder: Uint8Array; first: Int32Array } {
  const label = new Int32Array(w * h);
  let parent = new Int32Array(1024);
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
  // A run above touches [s, e) when it overlaps [s - reach, e + reach): diagonal contact counts
  // for 8-connectivity.
  const reach = connectivity === 8 ? 1 : 0;
  const cap = (w >> 1) + 1;
  let prevStart = new Int32Array(cap);
  let prevEnd = new Int32Array(cap);
  let prevLabel = new Int32Array(cap);
  let curStart = new Int32Array(cap);
  let curEnd = new Int32Array(cap);
  let curLabel = new Int32Array(cap);
  let prevCount = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let count = 0;
    let j = 0;
    let x = 0;
    while (x < w) {
      while (x < w && !on[row + x]) x++;
      if (x === w) break;
      const s = x;
      while (x < w && on[row + x]) x++;
      const lo = s - reach;
      const hi = x + reach;
      // Runs above that end before this one cannot touch any later run of this row either.
      while (j < prevCount && prevEnd[j]! <= lo) j++;
      let l = 0;
      for (let k = j; k < prevCount && prevStart[k]! < hi; k++) l = l ? union(l, prevLabel[k]!) : prevLabel[k]!;
      if (!l) {
        if (next >= parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        l = next++;
      }
      label.fill(l, row + s, row + x);
      curStart[count] = s;
      curEnd[count] = x;
      curLabel[count] = l;
      count++;
    }
    [prevStart, curStart] = [curStart, prevStart];
    [prevEnd, curEnd] = [curEnd, prevEnd];
    [prevLabel, curLabel] = [curLabel, prevLabel];
    prevCount = count;
  }
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
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const edgeRow = y === 0 || y === h - 1;
    let x = 0;
    while (x < w) {
      while (x < w && !label[row + x]) x++;
      if (x === w) break;
      const s = x;
      const k = final[label[row + x]!]!;
      while (x < w && label[row + x]) label[row + x++] = k;
      if (size[k] === 0) first[k] = row + s;
      size[k] = size[k]! + (x - s);
      if (edgeRow || s === 0 || x === w) touchesBorder[k] = 1;
    }
  }
  return { label, count, size, touchesBorder, first };
}
