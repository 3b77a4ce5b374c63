/**
 * What each finding is worded from, by code: what was measured, and the limits it was measured
 * against as the stage was given them (never a copy of a default, so the words follow the
 * configuration). PROPORTION_MISMATCH is a warning without a `cause` and an error with one.
 */
export interface FindingFacts {
  NOT_TWO_TONE: { share: number };
  DESIGN_TOUCHES_EDGE: { borders: string[] };
  DISCONNECTED_REGIONS: { count: number; share: number };
  PROPORTION_MISMATCH: {
    drawnRatio: number;
    jobRatio: number;
    stretch: number;
    keepWithin: number;
    maxStretch: number;
    cropAspect: { min: number; max: number };
    cause?: 'aspect' | 'stretch';
  };
  OPENING_REMOVED: { count: number; specks: number; narrow: number; points: number; minAreaMm2: number };
  ISLAND_BRIDGED: { count: number; bridgeMm: number };
  ISLAND_REMOVED: { count: number };
  NECK_THICKENED: { count: number };
  SPURS_SHAVED: { count: number };
  NECK_CHECK_SKIPPED: { pixels: number; bound: number };
  NO_DESIGN_FOUND: { cause: 'white' | 'black' | 'bleed' };
  INVALID_FILE: Record<string, never>;
  OPENING_TOO_SMALL: { count: number };
  FEATURES_TOO_FINE: { share: number; lengthMm: number; widthMm: number; minAreaMm2: number };
  MATERIAL_DISCONNECTED: { pieces: number };
  TRAPPED_ISLAND: { count: number };
  NECK_TOO_THIN: { count: number; cause?: 'pervasive' };
  TRACE_REJECTED: { cause?: 'crossing'; count?: number };
}

/** The codes the pipeline reports as findings. */
export type FindingCode = keyof FindingFacts;

/** The facts of some finding whose code is known only when the program runs (merging, blaming). */
export type AnyFindingFacts = FindingFacts[FindingCode];

/** A count of places, as findings that name places carry it: `count`, or `pieces` for loose metal. */
export function withPlacesAdded(facts: AnyFindingFacts, added: number): AnyFindingFacts {
  if ('count' in facts && typeof facts.count === 'number') return { ...facts, count: facts.count + added };
  if ('pieces' in facts) return { ...facts, pieces: facts.pieces + added };
  return facts;
}
