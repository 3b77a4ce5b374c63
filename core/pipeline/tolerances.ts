/** Tolerances of the pipeline; every stage takes its own slice of these. */
export const pipelineTolerances = {
  /** Working resolution of the framed strip. */
  workMmPerPx: 0.05,
  /** Working rasters larger than this are coarsened (the largest bracelet is about 9 MP at 0.05). */
  maxWorkPixels: 12_000_000,
  /** Past this the neck check is skipped; with the bound above it never is. */
  neckCheckMaxPixels: 16_000_000,
  droppedRegionsShare: 0.005,
  fineShare: 0.5,
  bridgeMm: 0.7,
  reachMm: 3,
  removableIslandMm2: 3,
  hairlineMm: 0.3,
  neckTargetMm: 0.7,
  /** Past this many necks and webs a design is refused rather than widened throughout. */
  maxWidenedPlaces: 200,
  maxTipMm: 1,
  /** A corner of an opening narrower than the floor may reach this far beyond where it is floor-wide. */
  maxOpeningTipMm: 0.3,
  /**
   * Air narrower than the floor (with its pixel of margin) that spans more than this is no corner's
   * tip but drawn (a narrow arm, a slot round an island): never filled silently, left to the final
   * check. The tip of a 10° corner spans about 1.3 mm.
   */
  airTipExtentMm: 1.5,
  /**
   * A filled point of an opening spanning more than this is named (OPENING_REMOVED): past the final
   * check's own allowance for a corner (0.3 mm beyond where it is 0.2 mm wide) the fill shows.
   */
  airPointNoticeMm: 0.5,
  /**
   * A filled dead end of an opening larger than this is named too, however short: a corner's tip
   * under the floor covers a few hundredths of a square millimetre, a crevice a letter leaves
   * against a frame several tenths, and that fill shows.
   */
  airFillNoticeMm2: 0.05,
  /**
   * How far above the metal floor the final check looks for the narrowest metal it reports as the
   * design's margin (openings: up to the metal floor, as far as the check's own search reaches).
   */
  marginSearchMm: 2,
  flattenToleranceMm: 0.02,
  /**
   * potrace's corner threshold, below its default 1: the ends of a slot a few pixels wide stay
   * square instead of being smoothed into long tapers narrower than the slot (measured: a 0.25 mm
   * slot traced at 1 narrows to 0.17 mm over a millimetre at each end; at 0.8 it keeps its width).
   */
  traceAlphaMax: 0.8,
};
