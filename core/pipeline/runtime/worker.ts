import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { analyseDesign } from '../analyse.ts';
import type { PipelineInput } from '../types.ts';
import { warmUp } from './warm-up.ts';

// libvips may use every core for one image: a lone upload (the usual case) decodes and resizes
// in about half the time, and when every worker is busy the extra threads only share the cores.
// Its operation cache (up to 50 MB per process) never hits here: every upload is a different image.
sharp.concurrency(availableParallelism());
sharp.cache(false);

// Uploads wait for the warm-up (under a second, once per worker) rather than interleave with it.
const warm = warmUp().catch(() => undefined);

parentPort?.on('message', async (task: { id: number; input: PipelineInput }) => {
  await warm;
  try {
    const outcome = await analyseDesign(task.input);
    parentPort?.postMessage({ id: task.id, outcome });
  } catch (error) {
    parentPort?.postMessage({ id: task.id, crash: String(error) });
  }
});
