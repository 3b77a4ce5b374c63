/** Shapes shared by the cut checker's modules (test helper; shares no code with `core/`). */

/** The manufacturing floors a ready cutting file must meet, in millimetres. */
export interface CutRules {
  /** Narrowest opening the laser cuts cleanly (0.2). */
  minOpeningMm: number;
  /** Narrowest metal that survives cutting and wear (0.6). */
  minMetalMm: number;
  /** A thin metal part may stick out this far beyond the metal's opening (sharp convex points: 1.0). */
  maxTipMm: number;
  /** A narrow part of an opening may reach this far beyond the opening's own opening (0.3). */
  maxOpeningTipMm: number;
}

/** Options of the width measurement. */
export interface MeasureOptions {
  /** Slack on every width compared with a floor, mm. Default 1.5 × the larger pixel side (see `measure.ts`). */
  tolMm?: number;
  /** How many places each list keeps; all are counted. Default 50. */
  maxPlaces?: number;
}

/** A strip raster without padding: pixel (i, j) covers [i·dx, (i+1)·dx] × [j·dy, (j+1)·dy] mm. */
export interface Mask {
  lengthMm: number;
  widthMm: number;
  /** Pixels along the length and across the width. */
  nx: number;
  ny: number;
  /** Pixel size along x and y, mm (not necessarily equal). */
  dx: number;
  dy: number;
  /** Row-major, 1 = metal, 0 = air. */
  metal: Uint8Array;
}

/**
 * A strip raster with `pad` pixels of outside air all round: the strip's pixel (i, j) is the
 * grid's (i + pad, j + pad). `nx`, `ny` count the padding.
 */
export interface Grid extends Mask {
  pad: number;
}

/** A metal or air region: centroid in mm on the strip, area in mm². */
export interface Region {
  x: number;
  y: number;
  areaMm2: number;
}

export type ThinMetalKind = 'between-boundaries' | 'neck' | 'thin-part' | 'narrow-everywhere';
export type NarrowOpeningKind = 'narrow-everywhere' | 'pinched' | 'narrow-arm';

/**
 * A place narrower than a floor. `widthMm` is the raster's estimate of the width there; for thin
 * parts and narrow arms `reachMm` is how far the part reaches beyond the morphological opening,
 * and the place is its farthest point.
 */
export interface NarrowPlace<K extends string = string> {
  kind: K;
  x: number;
  y: number;
  widthMm: number;
  reachMm?: number;
}

/**
 * Air labels kept for fidelity: `labels[k]` of grid pixel k is -1 for metal, 0 for the outside air
 * (everything beyond the rectangle and all air touching it), n ≥ 1 for `openings[n - 1]`.
 */
export interface LabelledGrid extends Grid {
  labels: Int32Array;
}

export interface MaskReport {
  lengthMm: number;
  widthMm: number;
  /** Pixel size of the raster measured, mm. */
  resolution: { dx: number; dy: number };
  /** Slack used on every width compared with a floor, mm. */
  tolMm: number;
  metalAreaMm2: number;
  openAreaPct: number;
  /** 4-connected metal components (1 for a good strip). */
  pieces: number;
  /** Extra metal components enclosed by an opening: they would fall out. */
  islands: Region[];
  /** Extra metal components next to the outside air: the strip is cut apart. */
  detached: Region[];
  /** Air components enclosed by metal, with area and centroid. */
  openings: Region[];
  /** Pieces of the outside air lying inside the rectangle (shaped ends, notches, cuts across). */
  outlineCuts: number;
  /** At most `maxPlaces` places; `thinMetalCount` counts them all. */
  thinMetal: NarrowPlace<ThinMetalKind>[];
  thinMetalCount: number;
  narrowOpenings: NarrowPlace<NarrowOpeningKind>[];
  narrowOpeningsCount: number;
  /** The labelled raster (for fidelity). */
  grid: LabelledGrid;
}

export interface PolygonProblem {
  kind:
    | 'zero-length-segment'
    | 'back-tracking'
    | 'fold'
    | 'self-intersection'
    | 'rings-touch'
    | 'rings-cross'
    | 'out-of-bounds'
    | 'degenerate-ring';
  x: number;
  y: number;
}

export interface CutReport extends MaskReport {
  formatProblems: string[];
  /** At most `maxPlaces`; `polygonProblemCount` counts them all. */
  polygonProblems: PolygonProblem[];
  polygonProblemCount: number;
  /** No format or polygon problem, one piece, no island or detached piece, no thin metal, no narrow opening. */
  ok: boolean;
}
