/**
 * The strip's regions on the padded raster: air components (the outside, openings, outline cuts)
 * and metal components (the piece, trapped islands, detached pieces), all 4-connected.
 */
import { joinCornerPixels, labelComponents } from './labels.ts';
import type { Grid, Region } from './types.ts';

/** Grid columns i0 … i1 - 1 and rows j0 … j1 - 1. */
export interface Box {
  i0: number;
  j0: number;
  i1: number;
  j1: number;
}

export interface AirRegions {
  /** -1 metal, 0 the outside (all air beyond the rectangle and all air touching it), n ≥ 1 opening n - 1. */
  labels: Int32Array;
  openings: Region[];
  /** The bounding box of each opening. */
  openingBoxes: Box[];
  /** Pieces of the outside air lying inside the rectangle. */
  outlineCuts: number;
  /** The bounding box of each of those pieces. */
  outlineBoxes: Box[];
}

/** Labels the air of a padded grid: the component of the padding is the outside (0), the others are openings. */
export function airRegions(grid: Grid): AirRegions {
  if (grid.pad < 1) throw new Error('the grid needs at least one pixel of outside air all round');
  const { nx, ny, pad } = grid;
  // Pixel 0 lies in the padding, so the outside is always the first component met.
  const labelled = labelComponents(grid.metal, 0, nx, ny);
  const { labels, count } = joinCornerPixels(labelled.labels, labelled.count, nx);
  const stats = regionStats(grid, labels, count);
  const openings = stats.slice(1);

  const outsideInside = new Uint8Array(nx * ny);
  for (let j = pad; j < ny - pad; j++) {
    for (let i = pad; i < nx - pad; i++) if (labels[j * nx + i] === 0) outsideInside[j * nx + i] = 1;
  }
  const pieces = labelComponents(outsideInside, 1, nx, ny);
  return {
    labels,
    openings,
    openingBoxes: boundingBoxes(grid, labels, count).slice(1),
    outlineCuts: pieces.count,
    outlineBoxes: boundingBoxes(grid, pieces.labels, pieces.count),
  };
}

function boundingBoxes(grid: Grid, labels: Int32Array, count: number): Box[] {
  const boxes = Array.from({ length: count }, () => ({ i0: grid.nx, j0: grid.ny, i1: 0, j1: 0 }));
  for (let j = 0; j < grid.ny; j++) {
    for (let i = 0; i < grid.nx; i++) {
      const label = labels[j * grid.nx + i]!;
      if (label < 0) continue;
      const box = boxes[label]!;
      if (i < box.i0) box.i0 = i;
      if (i >= box.i1) box.i1 = i + 1;
      if (j < box.j0) box.j0 = j;
      if (j >= box.j1) box.j1 = j + 1;
    }
  }
  return boxes;
}

export interface MetalRegions {
  pieces: number;
  metalAreaMm2: number;
  /** The largest component. */
  piece: Region | null;
  islands: Region[];
  detached: Region[];
}

/**
 * Labels the metal: the largest component is the piece; another one that touches the outside air
 * is detached, one that does not lies inside an opening and is a trapped island.
 */
export function metalRegions(grid: Grid, airLabels: Int32Array): MetalRegions {
  const { nx } = grid;
  const labelled = labelComponents(grid.metal, 1, nx, grid.ny);
  const { labels, count } = joinCornerPixels(labelled.labels, labelled.count, nx);
  const stats = regionStats(grid, labels, count);
  const touchesOutside = new Uint8Array(count);
  for (let k = 0; k < labels.length; k++) {
    const label = labels[k]!;
    if (label < 0) continue;
    // Metal never lies in the padding, so all four neighbours exist.
    if (airLabels[k - 1] === 0 || airLabels[k + 1] === 0 || airLabels[k - nx] === 0 || airLabels[k + nx] === 0) {
      touchesOutside[label] = 1;
    }
  }
  let largest = -1;
  for (let n = 0; n < count; n++) if (largest < 0 || stats[n]!.areaMm2 > stats[largest]!.areaMm2) largest = n;
  const islands: Region[] = [];
  const detached: Region[] = [];
  for (let n = 0; n < count; n++) {
    if (n === largest) continue;
    (touchesOutside[n] ? detached : islands).push(stats[n]!);
  }
  return {
    pieces: count,
    metalAreaMm2: stats.reduce((sum, region) => sum + region.areaMm2, 0),
    piece: largest >= 0 ? stats[largest]! : null,
    islands,
    detached,
  };
}

/** Area and centroid of each labelled component, in strip millimetres. */
function regionStats(grid: Grid, labels: Int32Array, count: number): Region[] {
  const { nx, ny, pad, dx, dy } = grid;
  const pixels = new Float64Array(count);
  const sumX = new Float64Array(count);
  const sumY = new Float64Array(count);
  for (let j = 0; j < ny; j++) {
    const y = (j - pad + 0.5) * dy;
    for (let i = 0; i < nx; i++) {
      const label = labels[j * nx + i]!;
      if (label < 0) continue;
      pixels[label]!++;
      sumX[label]! += (i - pad + 0.5) * dx;
      sumY[label]! += y;
    }
  }
  return Array.from({ length: count }, (_, n) => ({
    x: sumX[n]! / pixels[n]!,
    y: sumY[n]! / pixels[n]!,
    areaMm2: pixels[n]! * dx * dy,
  }));
}
