import { errorText, type Logger } from '../logger.ts';
import type { SweepReport } from './sweeper.ts';

export interface SweepSchedule {
  /** Stops the timer and waits for a sweep that is running. */
  stop(): Promise<void>;
}

/**
 * Sweeps once at start (so a restart closes what a crash left `processing`), then every
 * `everyMs`. Never two sweeps of one process at once; a failed sweep is logged and the next
 * tick tries again. The timer is unref'd: it never keeps the process alive.
 */
export async function startSweeping(
  sweep: () => Promise<SweepReport>,
  options: { everyMs: number; log: Logger },
): Promise<SweepSchedule> {
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= sweep()
      .then(
        (report) => {
          if (Object.values(report).some((n) => n > 0)) options.log.info({ msg: 'sweep', ...report });
        },
        (cause: unknown) => options.log.error({ msg: 'sweep failed', err: errorText(cause) }),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  await run();
  const timer = setInterval(() => void run(), options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
