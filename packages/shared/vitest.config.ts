import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Other packages reference the built '@authz/shared/testing/global-setup'; here the source.
    globalSetup: ['./src/testing/global-setup/index.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
