import { defineConfig } from 'vitest/config';

/**
 * `npm run test:scale`: two service processes on one database (an embedded file, then libSQL's
 * server), over real HTTP. Kept out of `npm test` (see vitest.config.ts); CI runs both. One file
 * at a time: each starts its own processes on a 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['test/scale/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
