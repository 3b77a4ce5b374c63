/**
 * Rules 3–6 on a strip raster: thin metal, narrow openings, pieces, areas.
 *
 * Tolerance. Pixels are samples at their centres. A width read between two centres of the other
 * phase is off by less than one pixel ρ either way once the average overshoot is taken off
 * (`width-estimates.ts`): each side's boundary lies anywhere between the last centre inside and
 * the first outside. Widths are flagged when the estimate is under `floor − tolMm`, tolMm = 1.5ρ
 * (ρ the larger pixel side), for metal and openings alike; erosions use the radius
 * (floor − tolMm)/2 to match. Hence:
 * - a width of floor − tolMm + ρ = floor − ρ/2 or more is never flagged: a part drawn exactly at
 *   the floor passes with half a pixel to spare, and so does anything above it;
 * - a width under floor − tolMm − ρ = floor − 2.5ρ is always flagged;
 * - between the two lies the raster's blind band, two pixels wide, where either answer is right.
 * At ρ = 0.02 mm: metal of 0.59 mm or more passes, under 0.55 mm fails. `test/checker/properties.test.ts`
 * tests exactly this on discs and bars at random sizes, angles and sub-pixel positions.
 */
import { narrowOpenings } from './narrow-openings.ts';
import { airRegions, metalRegions } from './regions.ts';
import { thinMetal } from './thin-metal.ts';
import type { CutRules, Grid, Mask, MaskReport, MeasureOptions, NarrowPlace } from './types.ts';

/** The default slack on widths: 1.5 × the larger pixel side (see the module comment). */
export function defaultTolerance(dx: number, dy: number): number {
  return 1.5 * Math.max(dx, dy);
}

/** Pixels of padding a raster needs so the outside air beyond the rectangle erodes to a core all round. */
export function paddingFor(rules: CutRules, dx: number, dy: number): number {
  return Math.ceil(Math.max(rules.minMetalMm, rules.minOpeningMm) / 2 / Math.min(dx, dy)) + 3;
}

/** The mask surrounded by `pad` pixels of outside air. */
export function padMask(mask: Mask, pad: number): Grid {
  const nx = mask.nx + 2 * pad;
  const ny = mask.ny + 2 * pad;
  const metal = new Uint8Array(nx * ny);
  for (let j = 0; j < mask.ny; j++) {
    metal.set(mask.metal.subarray(j * mask.nx, (j + 1) * mask.nx), (j + pad) * nx + pad);
  }
  return { ...mask, nx, ny, pad, metal };
}

/** Rules 3–6 measured on a strip raster at its own pixel size (a drawing, or a rasterised cut). */
export function checkMask(mask: Mask, rules: CutRules, options: MeasureOptions = {}): MaskReport {
  return measureGrid(padMask(mask, paddingFor(rules, mask.dx, mask.dy)), rules, options);
}

/** Rules 3–6 measured on a padded raster; every list of places capped at `maxPlaces`, all counted. */
export function measureGrid(grid: Grid, rules: CutRules, options: MeasureOptions = {}): MaskReport {
  const tolMm = options.tolMm ?? defaultTolerance(grid.dx, grid.dy);
  const maxPlaces = options.maxPlaces ?? 50;
  const air = airRegions(grid);
  const metal = metalRegions(grid, air.labels);
  const thin = thinMetal(grid, air.labels, rules, tolMm);
  const narrow = narrowOpenings(grid, air, rules, tolMm);
  const stripArea = grid.lengthMm * grid.widthMm;
  return {
    lengthMm: grid.lengthMm,
    widthMm: grid.widthMm,
    resolution: { dx: grid.dx, dy: grid.dy },
    tolMm,
    metalAreaMm2: metal.metalAreaMm2,
    openAreaPct: stripArea > 0 ? (100 * (stripArea - metal.metalAreaMm2)) / stripArea : 0,
    pieces: metal.pieces,
    islands: metal.islands,
    detached: metal.detached,
    openings: air.openings,
    outlineCuts: air.outlineCuts,
    thinMetal: byPlace(thin).slice(0, maxPlaces),
    thinMetalCount: thin.length,
    narrowOpenings: byPlace(narrow).slice(0, maxPlaces),
    narrowOpeningsCount: narrow.length,
    grid: { ...grid, labels: air.labels },
  };
}

/** Places in reading order along the strip, so reports are stable. */
function byPlace<T extends NarrowPlace>(places: T[]): T[] {
  return [...places].sort((a, b) => a.x - b.x || a.y - b.y);
}
