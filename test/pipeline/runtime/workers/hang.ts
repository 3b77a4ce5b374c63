import { parentPort } from 'node:worker_threads';

/** Never answers, and keeps its thread busy: a stuck tracer. */
parentPort?.on('message', () => {
  for (;;) {
    // spin
  }
});
