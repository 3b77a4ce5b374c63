/**
 * Scanline rasterisation of the cuts: a pixel is air when its centre lies inside some cut, each
 * cut filling its own rings even-odd, the cuts adding up (union); metal is the rest of the
 * rectangle. A row whose centre meets a vertex counts each edge on the half-open span [ymin, ymax)
 * of rows, with the row bounds an exact function of the vertex's y, so edges sharing a vertex
 * never both (or neither) cross there.
 */
import type { Ring } from './svg-format.ts';
import type { Grid } from './types.ts';

/** The strip L × W (thousandths) sampled at about `resolutionMm`: pixel sides L/round(L/ρ) and W/round(W/ρ). */
export function rasteriseCuts(
  paths: Ring[][],
  lengthU: number,
  widthU: number,
  resolutionMm: number,
  pad: number,
): Grid {
  const sx = Math.max(1, Math.round(lengthU / 1000 / resolutionMm));
  const sy = Math.max(1, Math.round(widthU / 1000 / resolutionMm));
  const nx = sx + 2 * pad;
  const ny = sy + 2 * pad;
  const metal = new Uint8Array(nx * ny);
  for (let j = 0; j < sy; j++) metal.fill(1, (j + pad) * nx + pad, (j + pad) * nx + pad + sx);
  const dxU = lengthU / sx;
  const dyU = widthU / sy;
  // First row (column) whose centre is at or beyond y (x), in strip pixels.
  const rowAtOrAfter = (y: number): number => Math.ceil(y / dyU - 0.5);
  const columnAtOrAfter = (x: number): number => Math.ceil(x / dxU - 0.5);

  for (const rings of paths) {
    let minY = Infinity;
    let maxY = -Infinity;
    for (const ring of rings) {
      for (let v = 1; v < ring.length; v += 2) {
        minY = Math.min(minY, ring[v]!);
        maxY = Math.max(maxY, ring[v]!);
      }
    }
    const j0 = Math.max(0, rowAtOrAfter(minY));
    const j1 = Math.min(sy, rowAtOrAfter(maxY)); // rows j0 … j1 - 1
    if (j1 <= j0) continue;
    // Crossings of each row, gathered row by row (counted first, then filled).
    const starts = new Int32Array(j1 - j0 + 1);
    const eachEdge = (visit: (j: number, x: number) => void): void => {
      for (const ring of rings) {
        const n = ring.length / 2;
        for (let v = 0; v < n; v++) {
          const w = (v + 1) % n;
          const x0 = ring[2 * v]!;
          const y0 = ring[2 * v + 1]!;
          const x1 = ring[2 * w]!;
          const y1 = ring[2 * w + 1]!;
          if (y0 === y1) continue;
          const from = Math.max(j0, rowAtOrAfter(Math.min(y0, y1)));
          const to = Math.min(j1, rowAtOrAfter(Math.max(y0, y1)));
          for (let j = from; j < to; j++) visit(j, x0 + (((j + 0.5) * dyU - y0) * (x1 - x0)) / (y1 - y0));
        }
      }
    };
    eachEdge((j) => starts[j - j0 + 1]!++);
    for (let r = 0; r < j1 - j0; r++) starts[r + 1]! += starts[r]!;
    const xs = new Float64Array(starts[j1 - j0]!);
    const fill = starts.slice(0, j1 - j0);
    eachEdge((j, x) => (xs[fill[j - j0]!++] = x));
    for (let j = j0; j < j1; j++) {
      const row = xs.subarray(starts[j - j0]!, starts[j - j0 + 1]!).sort();
      const base = (j + pad) * nx + pad;
      for (let t = 0; t + 1 < row.length; t += 2) {
        const i0 = Math.max(0, columnAtOrAfter(row[t]!));
        const i1 = Math.min(sx, columnAtOrAfter(row[t + 1]!));
        if (i1 > i0) metal.fill(0, base + i0, base + i1);
      }
    }
  }
  return { lengthMm: lengthU / 1000, widthMm: widthU / 1000, nx, ny, dx: dxU / 1000, dy: dyU / 1000, pad, metal };
}
