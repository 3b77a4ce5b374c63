/**
 * Clean-ups that must run however the benchmark ends: on a normal exit, on an uncaught exception,
 * and on SIGINT, SIGTERM or SIGHUP (`timeout` sends SIGTERM), which would otherwise end Node
 * without running `finally` blocks or exit handlers. The latest registered runs first.
 */
const cleanups = new Set<() => void>();
const signals = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

const runAll = () => {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch (error) {
      console.error(`bench clean-up failed: ${String(error)}`);
    }
  }
};
const onSignal = (signal: NodeJS.Signals) => process.exit(128 + signals[signal as keyof typeof signals]);

/** Runs `cleanup` (synchronous) once at exit, unless the returned function runs it first. */
export function onExit(cleanup: () => void): () => void {
  if (cleanups.size === 0) {
    process.on('exit', runAll);
    for (const signal of Object.keys(signals)) process.on(signal, onSignal);
  }
  cleanups.add(cleanup);
  return () => {
    if (!cleanups.delete(cleanup)) return;
    if (cleanups.size === 0) {
      process.off('exit', runAll);
      for (const signal of Object.keys(signals)) process.off(signal, onSignal);
    }
    cleanup();
  };
}
