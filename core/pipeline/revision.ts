/**
 * The pipeline's revision, recorded with every submission (`submission.engine.pipelineRevision`)
 * beside the package version, so a stored outcome says which engine produced it.
 *
 * Bump it by one in the same commit as any change that can alter an outcome for some input: a
 * finding's code, wording, place or count, the geometry, the cutting or preview SVG. A change
 * that leaves every output byte-identical (a refactor, a speed-up) keeps it. The package version
 * moves on releases; this number moves on behaviour, between and within them.
 */
export const PIPELINE_REVISION = 14;
