// Test fixtures (docs/conventions.md #11): each test file gets its own database, cloned from a
// template holding every data app's migrations, and its own Redis key prefix.
export {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  baseDatabaseUrl,
  databaseUrl,
  openTestPool,
  testRedisUrl,
} from './connection.js';
export { cleanupRedisPrefix, createRedisTestPrefix } from './redis-prefix.js';
export { TEMPLATE_DATABASE_PREFIX, ensureTemplateDatabase } from './template-database.js';
export { TEST_DATABASE_PREFIX, createTestDatabase, sweepTestDatabases } from './test-database.js';
export type { CreateTestDatabaseOptions, TestDatabase } from './test-database.js';
export { useTestEnvironment } from './test-environment.js';
export type { TestEnvironment } from './test-environment.js';
export { findDataApps, findWorkspaceRoot } from './workspace.js';
export type { DataApp } from './workspace.js';
export { probeService, serviceTestEnv, testLogger } from './service-probe.js';
export type { ServiceProbe } from './service-probe.js';
export { TestDocumentServer } from './document-server.js';
export type { CannedResponse, DocumentServerOptions } from './document-server.js';
export { isAddressInUse, spareTestPort } from './spare-port.js';
