import type { ChildProcess } from 'node:child_process';
import type { Database } from '../../db/database.ts';

export interface WaitOptions {
  /** The upper bound: past it the wait fails, saying what it waited for. */
  timeoutMs?: number;
  /** How often the condition is asked again. */
  everyMs?: number;
  /** A process whose exit ends the wait at once (it can no longer bring the condition about). */
  child?: ChildProcess;
}

/**
 * Asks `condition` until it holds: for an event the test can only see in stored state, a log or
 * another process. `what` names the event, so that a timeout says which one never came.
 */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, everyMs = 10, child }: WaitOptions = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`stopped waiting for ${what}: the process exited (${child.exitCode ?? child.signalCode})`);
    }
    if (await condition()) return;
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}, in vain`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Resolves when the next write is queued on `db`, by the service or the test. It watches
 * `db.write` only until then and passes the call through unchanged, so every write still runs
 * through the real queue in the order it was queued.
 */
export function nextWriteQueued(db: Database): Promise<void> {
  const write = db.write;
  return new Promise((resolve) => {
    db.write = (fn) => {
      db.write = write;
      resolve();
      return write(fn);
    };
  });
}
