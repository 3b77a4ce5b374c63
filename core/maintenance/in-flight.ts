/** Work the service must let finish before it stops (uploads being processed). */
interface InFlight {
  track<T>(work: Promise<T>): Promise<T>;
  /** True once nothing tracked is running (work started meanwhile included), false after `timeoutMs`. */
  settled(timeoutMs: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      running.add(work);
      const done = () => running.delete(work);
      work.then(done, done);
      return work;
    },
    async settled(timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const drained = (async () => {
        while (running.size > 0) await Promise.allSettled([...running]);
        return true as const;
      })();
      try {
        return await Promise.race([drained, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
