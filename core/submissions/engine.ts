import packageJson from '../../package.json' with { type: 'json' };
import type { JobRow, SubmissionRow } from '../../db/schema.ts';
import { despeckleAreaMm2, type Config } from '../config.ts';
import type { Engine } from '../contract/submission.ts';
import { PIPELINE_REVISION } from '../pipeline/revision.ts';
import { pipelineTolerances } from '../pipeline/tolerances.ts';

/** What the `engine` column holds: the record without the input hash, which has its own column. */
export type EngineRecord = Omit<Engine, 'inputSha256'>;

/** The package's own version, the first half of the engine's name (`PIPELINE_REVISION` is the other). */
const ENGINE_VERSION: string = packageJson.version;

/**
 * The engine and parameters a job's upload is analysed under, taken from the live configuration
 * and the pipeline's own tolerance object (never copies of their numbers), when the upload is
 * reserved: a row that ends failed or interrupted still says what it ran under.
 */
export function engineRecord(config: Config, job: Pick<JobRow, 'lengthMm' | 'widthMm'>): EngineRecord {
  const m = config.manufacturing;
  return {
    version: ENGINE_VERSION,
    pipelineRevision: PIPELINE_REVISION,
    parameters: {
      minOpeningMm: m.minOpeningMm,
      minMetalMm: m.minMetalMm,
      despeckleAreaFraction: m.despeckleAreaFraction,
      minOpeningAreaMm2: despeckleAreaMm2(m, job.lengthMm, job.widthMm),
      thicknessMm: m.thicknessMm,
      densityGramsPerCm3: m.densityGramsPerCm3,
      cropAspect: { ...config.image.cropAspect },
      // The proportion tolerances moved into configuration (image.proportion); they keep their
      // names here so that every engine record reads the same.
      tolerances: {
        ...pipelineTolerances,
        keepProportionWithin: config.image.proportion.keepWithin,
        maxStretch: config.image.proportion.maxStretch,
      },
    },
  };
}

/** `submission.engine`: the stored record with the upload's hash; null for rows stored before it was kept. */
export function engineView(row: Pick<SubmissionRow, 'sha256' | 'engine'>): Engine | null {
  const record = row.engine as EngineRecord | null;
  return record ? { inputSha256: row.sha256, ...record } : null;
}
