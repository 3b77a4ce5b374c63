import { errorText, type Logger } from '../logger.ts';
import type { SweepReport } from './sweeper.ts';
import { LEASE_RENEW_EVERY_MS } from './upload-leases.ts';

/** Work repeated on a timer. */
interface Schedule {
  /** Stops the timer and waits for a run that is under way. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `everyMs`, never two runs at once (a tick that finds one under way is
 * skipped); a failed run is logged as `failedMsg` and the next tick tries again. The timer is
 * unref'd: it never keeps the process alive. `runNow` runs once more at once, in the same turn.
 */
function repeat(
  work: () => Promise<void>,
  options: { everyMs: number; log: Logger; failedMsg: string; level: 'warn' | 'error' },
): Schedule & { runNow(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= work()
      .catch((cause: unknown) => options.log[options.level]({ msg: options.failedMsg, err: errorText(cause) }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void run(), options.everyMs);
  timer.unref();
  return {
    runNow: run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Sweeps once at start (so a restart closes what a crash left `processing`), then every
 * `everyMs`, logging what a sweep changed.
 */
export async function startSweeping(
  sweep: () => Promise<SweepReport>,
  options: { everyMs: number; log: Logger },
): Promise<Schedule> {
  const schedule = repeat(
    async () => {
      const report = await sweep();
      if (Object.values(report).some((n) => n > 0)) options.log.info({ msg: 'sweep', ...report });
    },
    { ...options, failedMsg: 'sweep failed', level: 'error' },
  );
  await schedule.runNow();
  return schedule;
}

/** Renews this process's upload leases every `LEASE_RENEW_EVERY_MS` (core.renewUploadLeases). */
export function startRenewing(core: { renewUploadLeases(): Promise<void> }, log: Logger): Schedule {
  return repeat(() => core.renewUploadLeases(), {
    everyMs: LEASE_RENEW_EVERY_MS,
    log,
    failedMsg: 'upload lease renewal failed',
    level: 'warn',
  });
}
