// The pages name their dependencies through this module, so they read the same wherever the
// service builds the registry (src/registry.ts, docs/architecture.md "Inside a service").
export type { Registry } from '../registry.js';
