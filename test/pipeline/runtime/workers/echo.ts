import { parentPort } from 'node:worker_threads';

/** Answers every task with an empty analysis after `lengthMm` milliseconds. */
parentPort?.on('message', (task: { id: number; input: { lengthMm: number; png: Uint8Array } }) => {
  setTimeout(() => {
    parentPort?.postMessage({
      id: task.id,
      outcome: { kind: 'analysed', errors: [], warnings: [{ code: 'NOT_TWO_TONE', bytes: task.input.png.length }] },
    });
  }, task.input.lengthMm);
});
