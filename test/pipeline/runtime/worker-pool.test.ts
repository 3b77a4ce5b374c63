import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/config.ts';
import type { PipelineInput } from '../../../core/pipeline/types.ts';
import { createPipelinePool } from '../../../core/pipeline/runtime/worker-pool.ts';

const worker = (name: string) => new URL(`./workers/${name}.ts`, import.meta.url);
const input = (delayMs: number, pixels = 1): PipelineInput => ({
  png: new Uint8Array([1, 2, 3]),
  header: { width: pixels, height: 1, bitDepth: 8, colorType: 0, interlaced: false },
  productType: 'bracelet',
  lengthMm: delayMs,
  widthMm: 20,
  config: defaultConfig,
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('pipeline worker pool', () => {
  it('runs tasks in worker threads and returns their outcomes', async () => {
    const pool = createPipelinePool({ size: 2, timeoutMs: 5000, workerUrl: worker('echo') });
    close = pool.close;
    const outcome: any = await pool.pipeline(input(1));
    expect(outcome).toMatchObject({ kind: 'analysed', warnings: [{ bytes: 3 }] });
  });

  it('queues tasks beyond its size and runs them all', async () => {
    const pool = createPipelinePool({ size: 2, timeoutMs: 5000, workerUrl: worker('echo') });
    close = pool.close;
    const outcomes = await Promise.all(Array.from({ length: 7 }, () => pool.pipeline(input(30))));
    expect(outcomes.every((o) => o.kind === 'analysed')).toBe(true);
  });

  it('runs images over heavyPixels one at a time while smaller ones take the free worker', async () => {
    const pool = createPipelinePool({ size: 2, timeoutMs: 5000, workerUrl: worker('echo'), heavyPixels: 100 });
    close = pool.close;
    const done: string[] = [];
    const run = (name: string, task: PipelineInput) => pool.pipeline(task).then(() => done.push(name));
    // Without the bound both heavy images would run at once and the light one would finish last.
    await Promise.all([run('heavy 1', input(300, 101)), run('heavy 2', input(300, 101)), run('light', input(10, 100))]);
    expect(done).toEqual(['light', 'heavy 1', 'heavy 2']);
  });

  it('answers VECTORIZER_UNAVAILABLE for a run past the timeout and keeps serving with a fresh worker', async () => {
    const pool = createPipelinePool({ size: 1, timeoutMs: 300, workerUrl: worker('hang') });
    close = pool.close;
    const started = performance.now();
    expect(await pool.pipeline(input(1))).toMatchObject({ kind: 'failed', code: 'VECTORIZER_UNAVAILABLE' });
    expect(performance.now() - started).toBeLessThan(5000);
    // The replacement hangs too, but it was replaced: the pool still answers.
    expect(await pool.pipeline(input(1))).toMatchObject({ kind: 'failed', code: 'VECTORIZER_UNAVAILABLE' });
  });

  it('answers PROCESSING_FAILED when the worker dies, and replaces it', async () => {
    const pool = createPipelinePool({ size: 1, timeoutMs: 5000, workerUrl: worker('crash') });
    close = pool.close;
    expect(await pool.pipeline(input(1))).toMatchObject({ kind: 'failed', code: 'PROCESSING_FAILED' });
    expect(await pool.pipeline(input(1))).toMatchObject({ kind: 'failed', code: 'PROCESSING_FAILED' });
  });

  it('refuses new work once closed', async () => {
    const pool = createPipelinePool({ size: 1, timeoutMs: 5000, workerUrl: worker('echo') });
    await pool.close();
    expect(await pool.pipeline(input(1))).toMatchObject({ kind: 'failed', code: 'PROCESSING_FAILED' });
  });
});
