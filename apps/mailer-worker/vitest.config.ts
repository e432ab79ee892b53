import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // A migrated template database, cloned per test file (docs/conventions.md #11).
    globalSetup: ['@authz/shared/testing/global-setup'],
    // No file keeps state in modules, so a worker loads them once for all its files
    // (docs/conventions.md #11).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
