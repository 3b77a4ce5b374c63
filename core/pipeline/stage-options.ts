import type { FinalCutOptions } from './stages/final-cut.ts';
import type { FrameOptions } from './stages/frame.ts';
import { pipelineTolerances as t } from './tolerances.ts';
import type { UncuttableOptions } from './stages/uncuttable-openings.ts';
import type { ValidateOptions } from './stages/validate.ts';

/** The cutting floors every stage measures against (configuration `manufacturing`). */
export interface Floors {
  minOpeningMm: number;
  minMetalMm: number;
}

/**
 * What each stage is run with: the floors and its slice of the pipeline's tolerances. The
 * orchestrator and the stage tests take them from here, so a test runs a stage as a job does.
 */
export const stageOptions = (floors: Floors) => ({
  /** `minOpeningAreaMm2` is the job's despeckle area (`despeckleAreaMm2`). */
  fill: (minOpeningAreaMm2: number): UncuttableOptions => ({
    minOpeningMm: floors.minOpeningMm,
    minOpeningAreaMm2,
    fineShare: t.fineShare,
  }),
  frame: {
    ...floors,
    bridgeMm: t.bridgeMm,
    reachMm: t.reachMm,
    removableIslandMm2: t.removableIslandMm2,
    hairlineMm: t.hairlineMm,
    neckTargetMm: t.neckTargetMm,
    maxTipMm: t.maxTipMm,
    maxWidenedPlaces: t.maxWidenedPlaces,
  } satisfies FrameOptions,
  validate: {
    ...floors,
    hairlineMm: t.hairlineMm,
    neckTargetMm: t.neckTargetMm,
    maxTipMm: t.maxTipMm,
    neckCheckMaxPixels: t.neckCheckMaxPixels,
  } satisfies ValidateOptions,
  finalCut: {
    ...floors,
    airTipExtentMm: t.airTipExtentMm,
    maxTipMm: t.maxTipMm,
    maxOpeningTipMm: t.maxOpeningTipMm,
    marginSearchMm: t.marginSearchMm,
    flattenToleranceMm: t.flattenToleranceMm,
    alphaMax: t.traceAlphaMax,
    neckTargetMm: t.neckTargetMm,
  } satisfies FinalCutOptions,
});
