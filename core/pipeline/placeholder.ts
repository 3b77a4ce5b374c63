import type { Pipeline } from './types.ts';

/**
 * Stands in for the image pipeline until its own issue lands. It analyses nothing, so every
 * upload ends as an honest technical failure (502 PROCESSING_FAILED, stored as
 * failed_processing, not counted) instead of a made-up result.
 */
export const placeholderPipeline: Pipeline = async () => ({
  kind: 'failed',
  code: 'PROCESSING_FAILED',
  reason: 'the image pipeline is not built yet (placeholder)',
});
