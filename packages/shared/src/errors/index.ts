export * from './app-error.js';
export * from './api-errors.js';
export * from './oauth-errors.js';
export { rebuildError } from './registry.js';
export * from './wire.js';
export * from './grpc-status.js';
