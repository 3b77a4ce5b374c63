import { parentPort } from 'node:worker_threads';

/** Dies on its first task: a tracer that crashes. */
parentPort?.on('message', () => {
  process.exit(3);
});
