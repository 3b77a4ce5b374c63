import { Worker } from 'node:worker_threads';
import type { Pipeline, PipelineInput, PipelineOutcome } from '../types.ts';

interface PoolOptions {
  size: number;
  /** A run longer than this is abandoned (its worker replaced) as VECTORIZER_UNAVAILABLE. */
  timeoutMs: number;
  /** The worker script; tests swap in workers that hang or crash. */
  workerUrl?: URL;
  /**
   * Images of more pixels than this are analysed one at a time (smaller ones still use the other
   * workers): a 24 MP drawing of millions of tiny openings takes about 500 MB at its peak, and every
   * stage now runs even on a refused drawing, so two at once pushed the process past its memory bound.
   */
  heavyPixels?: number;
}

interface Task {
  input: PipelineInput;
  resolve: (outcome: PipelineOutcome) => void;
}

interface Slot {
  worker: Worker;
  task?: Task & { id: number; timer: NodeJS.Timeout };
}

const defaultWorker = new URL('./worker.ts', import.meta.url);

/**
 * Runs the pipeline in worker threads so the server keeps answering while images are
 * analysed. Uploads beyond the pool's size wait their turn (heavy ones also wait for each other).
 * A worker that times out or dies is replaced, and its upload answered as a technical failure
 * (never counted).
 */
export function createPipelinePool(options: PoolOptions): { pipeline: Pipeline; close(): Promise<void> } {
  const url = options.workerUrl ?? defaultWorker;
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    // Node runs the TypeScript source itself (type stripping), as it does the service.
    const slot: Slot = { worker: new Worker(url) };
    slot.worker.on('message', (message: { id: number; outcome?: PipelineOutcome; crash?: string }) => {
      if (!slot.task || slot.task.id !== message.id) return;
      finish(slot, message.outcome ?? failed('PROCESSING_FAILED', `worker error: ${message.crash}`));
    });
    const lost = (why: string) => {
      if (slot.task) finish(slot, failed('PROCESSING_FAILED', why), true);
      else replace(slot);
    };
    slot.worker.on('error', (error) => lost(`worker died: ${String(error)}`));
    slot.worker.on('exit', (code) => lost(`worker exited with code ${code}`));
    return slot;
  };

  const slots: Slot[] = Array.from({ length: Math.max(1, options.size) }, spawn);

  function replace(slot: Slot): void {
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    if (closed) return;
    const index = slots.indexOf(slot);
    if (index >= 0) slots[index] = spawn();
    pump();
  }

  function finish(slot: Slot, outcome: PipelineOutcome, broken = false): void {
    const task = slot.task!;
    clearTimeout(task.timer);
    slot.task = undefined;
    task.resolve(outcome);
    if (broken) replace(slot);
    else pump();
  }

  const heavy = (input: PipelineInput): boolean =>
    options.heavyPixels !== undefined && input.header.width * input.header.height > options.heavyPixels;

  function pump(): void {
    for (const slot of slots) {
      if (slot.task || queue.length === 0) continue;
      // The first task in line that may start: a heavy one waits while another heavy one runs.
      const heavyRunning = slots.some((s) => s.task && heavy(s.task.input));
      const at = queue.findIndex((t) => !heavyRunning || !heavy(t.input));
      if (at < 0) return;
      const task = queue.splice(at, 1)[0]!;
      const id = nextId++;
      const timer = setTimeout(
        () => finish(slot, failed('VECTORIZER_UNAVAILABLE', `no answer within ${options.timeoutMs} ms`), true),
        options.timeoutMs,
      );
      slot.task = { ...task, id, timer };
      slot.worker.postMessage({ id, input: task.input });
    }
  }

  const pipeline: Pipeline = (input) =>
    new Promise((resolve) => {
      if (closed) return resolve(failed('PROCESSING_FAILED', 'the pipeline pool is closed'));
      queue.push({ input, resolve });
      pump();
    });

  return {
    pipeline,
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.resolve(failed('PROCESSING_FAILED', 'the pipeline pool is closing'));
      await Promise.all(
        slots.map((slot) => {
          slot.worker.removeAllListeners();
          if (slot.task) {
            clearTimeout(slot.task.timer);
            slot.task.resolve(failed('PROCESSING_FAILED', 'the pipeline pool closed'));
          }
          return slot.worker.terminate();
        }),
      );
    },
  };
}

const failed = (code: 'VECTORIZER_UNAVAILABLE' | 'PROCESSING_FAILED', reason: string): PipelineOutcome => ({
  kind: 'failed',
  code,
  reason,
});
