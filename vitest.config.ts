import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The two-instance tests start their own processes and run apart: `npm run test:scale`.
    exclude: [...configDefaults.exclude, 'test/scale/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
