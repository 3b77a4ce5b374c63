import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The two-instance tests start their own processes and run apart: `npm run test:scale`.
    exclude: [...configDefaults.exclude, 'test/scale/**'],
    // Twice the slowest plain test's time on a quiet machine (a real Chromium journey, 15 s): two
    // workers on CI's two cores slow each other, and one such test outran 30 s there.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default leaves a core free, which on CI's two cores runs the files one at a time: the
    // suite took 1164 s so here, 836 s with two (every test passing either way).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
