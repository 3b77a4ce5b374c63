import { scanLabels } from './components-scan.ts';

/** Connected components of the pixels where `on[i]` is nonzero, as runs. */
export interface Labels {
  /** Raster width. */
  w: number;
  /** Components are numbered from 1. */
  count: number;
  /** `size[k]` is the pixel count of component k (index 0 unused). */
  size: Int32Array;
  /** Whether component k touches the raster border. */
  touchesBorder: Uint8Array;
  /** `first[k]` is the index of component k's first pixel in raster order (index 0 unused). */
  first: Int32Array;
  /**
   * Every run of "on" pixels in raster order: [start, end) as raster indices, and its component;
   * row y's runs are those from `rowFirst[y]` up to `rowFirst[y + 1]`.
   */
  runs: { start: Int32Array; end: Int32Array; label: Int32Array; rowFirst: Int32Array };
}

/** Labels 4- or 8-connected components (see `scanLabels`). */
export function labelComponents(on: Uint8Array, w: number, h: number, connectivity: 4 | 8): Labels {
  return scanLabels(on, w, h, connectivity);
}

/** The component of pixel i, 0 when it is off: a binary search among its row's runs. */
export function labelAt(labels: Labels, i: number): number {
  const { start, end, label, rowFirst } = labels.runs;
  const y = Math.floor(i / labels.w);
  if (y < 0 || y + 1 >= rowFirst.length) return 0;
  let lo = rowFirst[y]!;
  let hi = rowFirst[y + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (end[mid]! <= i) lo = mid + 1;
    else if (start[mid]! > i) hi = mid - 1;
    else return label[mid]!;
  }
  return 0;
}

/** The leftmost pixel of component k in row y, or -1. */
export function firstInRow(labels: Labels, k: number, y: number): number {
  const { start, label, rowFirst } = labels.runs;
  for (let r = rowFirst[y]!; r < rowFirst[y + 1]!; r++) if (label[r] === k) return start[r]! - y * labels.w;
  return -1;
}

/** The pixels of one component as a 0/1 mask of n pixels. */
export function componentMask(labels: Labels, k: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  forRunsOf(labels, k, (s, e) => out.fill(1, s, e));
  return out;
}

/** Calls `each(start, end)` for every run of component k, in raster order. */
export function forRunsOf(labels: Labels, k: number, each: (start: number, end: number) => void): void {
  const { start, end, label } = labels.runs;
  for (let r = 0; r < label.length; r++) if (label[r] === k) each(start[r]!, end[r]!);
}

/** Per component: centroid and bounding box in pixels. */
export interface ComponentBox {
  cx: number;
  cy: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function componentBoxes(labels: Labels, w: number): ComponentBox[] {
  const boxes: ComponentBox[] = [];
  const sx = new Float64Array(labels.count + 1);
  const sy = new Float64Array(labels.count + 1);
  for (let k = 0; k <= labels.count; k++) boxes.push({ cx: 0, cy: 0, x0: Infinity, y0: Infinity, x1: -1, y1: -1 });
  // Run by run: a run adds its span to the box and its pixel coordinates to the sums at once
  // (integer sums, exact in doubles whatever the order).
  const { start, end, label } = labels.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    const y = Math.floor(start[r]! / w);
    const s = start[r]! - y * w;
    const x = end[r]! - y * w;
    const b = boxes[k]!;
    sx[k] = sx[k]! + ((s + x - 1) * (x - s)) / 2;
    sy[k] = sy[k]! + y * (x - s);
    if (s < b.x0) b.x0 = s;
    if (x - 1 > b.x1) b.x1 = x - 1;
    if (y < b.y0) b.y0 = y;
    if (y > b.y1) b.y1 = y;
  }
  for (let k = 1; k <= labels.count; k++) {
    boxes[k]!.cx = sx[k]! / labels.size[k]! + 0.5;
    boxes[k]!.cy = sy[k]! / labels.size[k]! + 0.5;
  }
  return boxes;
}
