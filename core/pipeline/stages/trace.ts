import type { CutPolygon, Point } from '../vector/cuts.ts';
import { effectiveShade, faithfulRing, type PaddedField } from '../vector/faithful-ring.ts';
import { flattenCurve, type PixelToMm } from '../vector/flatten.ts';
import { invertInto } from '../raster/morphology.ts';
import { potracePaths, type PotracePath } from '../potrace/paths.ts';
import type { StripRaster } from '../raster/raster.ts';
import { clipRingToRect, ringArea, ringInsideRect } from '../vector/ring-geometry.ts';
import { cellGrid, type CellGrid } from '../vector/cell-grid.ts';

interface TraceOptions {
  /** Largest distance in millimetres between a traced curve and its polyline (default 0.02). */
  toleranceMm?: number;
  /** potrace corner threshold: higher gives rounder, fewer corners (default 1). */
  alphaMax?: number;
  /** Let potrace join neighbouring curve segments (default true). */
  optCurve?: boolean;
  /**
   * Places (millimetres, with a radius) where potrace's curves narrowed what was drawn: every
   * boundary passing through one is traced as drawn instead, along the contour where the shades
   * cross 128 (`faithfulRing`).
   */
  faithfulAt?: readonly FaithfulPlace[];
}

export interface FaithfulPlace {
  x: number;
  y: number;
  r: number;
}

/** A path's pixel outline in padded pixel corners: what hole assignment needs of it. */
type Outline = Pick<PotracePath, 'pt' | 'area' | 'minX' | 'minY' | 'maxX' | 'maxY'>;

const DEFAULT_TOLERANCE_MM = 0.02;
// Finer than this only multiplies points: potrace's curves are no truer than that.
const MIN_TOLERANCE_MM = 0.0005;

/**
 * How far the strip edge is extended outwards before tracing. Extending (rather than tracing
 * the bare raster, where potrace would close edge regions with smoothed corners up to half a
 * pixel off the edge) makes an edge region's outline cross the edge squarely, and clipping at the
 * edge then follows it exactly. A few pixels keep potrace's smoothing of the far end well away.
 */
const EDGE_PAD_PX = 8;

/**
 * Traces every 4-connected air region of the strip (metal is 8-connected, as in `regions`) into a
 * cut in millimetres: outer ring (positive `ringArea`) plus the metal islands left inside it as
 * holes (negative `ringArea`). Curves stay within `toleranceMm` of potrace's; regions touching the
 * strip edge are closed along it, with coordinates exactly 0, w · mmPerPxX or h · mmPerPxY there.
 */
export function traceCuts(raster: StripRaster, options: TraceOptions = {}): CutPolygon[] {
  const tolerance = validTolerance(options.toleranceMm);
  const pad = EDGE_PAD_PX;
  const { w, h, data } = raster;
  const isAir = (x: number, y: number) => data[clamp(y - pad, h) * w + clamp(x - pad, w)] === 0;
  const map: PixelToMm = { sx: raster.mmPerPxX, sy: raster.mmPerPxY, ox: pad, oy: pad };
  const maxX = w * raster.mmPerPxX;
  const maxY = h * raster.mmPerPxY;

  const outers: { outline: Outline; cut: CutPolygon }[] = [];
  const holes: { outline: Outline; ring: Point[] }[] = [];
  const places = options.faithfulAt ?? [];
  const field: PaddedField | undefined = places.length > 0 ? { shade: effectiveShade(raster), w, h, pad } : undefined;
  const grid = places.length > 0 ? placeGrid(places) : undefined;
  const visit = (path: PotracePath) => {
    let ring = flattenCurve(path.curve, map, tolerance);
    if (field && passesThrough(ring, grid!)) ring = faithfulRing(field, path.pt[0]!.x - 1, path.pt[0]!.y, map);
    if (!ringInsideRect(ring, maxX, maxY)) ring = clipRingToRect(ring, maxX, maxY);
    const area = ringArea(ring);
    if (ring.length < 3 || area === 0) return;
    const outer = path.sign === '+';
    if (outer !== area > 0) ring.reverse();
    const outline = {
      pt: path.pt,
      area: path.area,
      minX: path.minX,
      minY: path.minY,
      maxX: path.maxX,
      maxY: path.maxY,
    };
    if (outer) outers.push({ outline, cut: { outer: ring, holes: [] } });
    else holes.push({ outline, ring });
  };
  const fill = (out: Uint8Array) => fillPaddedAir(raster, pad, out);
  const potraceOptions = { alphaMax: options.alphaMax ?? 1, optCurve: options.optCurve ?? true };
  potracePaths(w + 2 * pad, h + 2 * pad, fill, isAir, potraceOptions, visit);

  // Innermost first, so the first outline around a hole is its own region's.
  const byArea = [...outers].sort((a, b) => a.outline.area - b.outline.area);
  for (const hole of holes) {
    const start = hole.outline.pt[0]!;
    const x = start.x + 0.5;
    const y = start.y + 0.5;
    const owner = byArea.find(({ outline }) => outline.area > hole.outline.area && outlineContains(outline, x, y));
    owner?.cut.holes.push(hole.ring);
  }
  return outers.map(({ cut }) => cut);
}

/** Places bucketed by millimetre cell, for `passesThrough`. */
type PlaceGrid = CellGrid<FaithfulPlace>;

const placeGrid = (places: readonly FaithfulPlace[]): PlaceGrid =>
  cellGrid(places, (p) => [p.x - p.r, p.y - p.r, p.x + p.r, p.y + p.r], 1);

/** Whether a ring comes within any place's radius: some segment of it does. */
function passesThrough(ring: readonly Point[], grid: PlaceGrid): boolean {
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const box = [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)] as const;
    const meets = grid.some(box, (place) => {
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((place.x - ax) * dx + (place.y - ay) * dy) / len2));
      return Math.hypot(place.x - ax - t * dx, place.y - ay - t * dy) <= place.r;
    });
    if (meets) return true;
  }
  return false;
}

function validTolerance(toleranceMm: number | undefined): number {
  const t = toleranceMm ?? DEFAULT_TOLERANCE_MM;
  return Number.isFinite(t) && t > 0 ? Math.max(t, MIN_TOLERANCE_MM) : DEFAULT_TOLERANCE_MM;
}

/**
 * Writes air as 1, metal as 0, with every pixel beyond the edge copying its nearest edge pixel. Copying
 * the edge joins no two regions that were apart and splits none, so each traced region is exactly
 * one air region of the strip, extended outwards where it touches the edge.
 */
function fillPaddedAir(raster: StripRaster, pad: number, out: Uint8Array): void {
  const { w, h, data } = raster;
  const pw = w + 2 * pad;
  for (let py = 0; py < h + 2 * pad; py++) {
    const src = clamp(py - pad, h) * w;
    const row = py * pw;
    invertInto(data.subarray(src, src + w), out.subarray(row + pad, row + pad + w));
    out.fill(out[row + pad]!, row, row + pad);
    out.fill(out[row + pad + w - 1]!, row + pad + w, row + pw);
  }
}

const clamp = (i: number, n: number) => (i < 0 ? 0 : i >= n ? n - 1 : i);

/**
 * Whether (x, y) lies inside a path's pixel outline. The outline has integer corners and the
 * query sits on a pixel centre, so no ray ever grazes a vertex.
 */
function outlineContains(outline: Outline, x: number, y: number): boolean {
  if (x < outline.minX || x > outline.maxX || y < outline.minY || y > outline.maxY) return false;
  const pt = outline.pt;
  let inside = false;
  for (let i = 0, j = pt.length - 1; i < pt.length; j = i++) {
    const a = pt[j]!;
    const b = pt[i]!;
    // Only vertical unit steps can cross a horizontal ray through a pixel centre.
    if (a.x === b.x && a.x > x && a.y > y !== b.y > y) inside = !inside;
  }
  return inside;
}
