import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The compiled copies in dist/ are not benchmarks of their own.
    benchmark: { include: ['src/**/*.bench.ts'] },
    // Other packages reference the built '@authz/shared/testing/global-setup'; here the source.
    globalSetup: ['./src/testing/global-setup/index.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
