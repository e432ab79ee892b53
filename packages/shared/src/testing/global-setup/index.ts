// Vitest globalSetup: `globalSetup: ['@authz/shared/testing/global-setup']` in a package's
// vitest.config.ts. Builds the migrated template once before any test file starts (and outside
// their timeouts), after dropping what killed runs left behind.
import { ensureTemplateDatabase } from '../template-database.js';
import { sweepTestDatabases } from '../test-database.js';

export async function setup(): Promise<void> {
  await sweepTestDatabases();
  await ensureTemplateDatabase();
}
