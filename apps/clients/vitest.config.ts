import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // A migrated template database, cloned per test file (docs/conventions.md #11).
    globalSetup: ['@authz/shared/testing/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
