// Worker threads start as plain Node: register tsx's loader here, then load the TypeScript worker.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.script);
