import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The launcher tests boot PostgreSQL, Redis and seven processes; the real apps need more.
    // No file keeps state in modules, so a worker loads them once for all its files
    // (docs/conventions.md #11).
    isolate: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // Launchers prefer the same embedded ports (54329, 63799, 2525): one file at a time.
    fileParallelism: false,
  },
});
