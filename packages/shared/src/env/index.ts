export * from './load-env.js';
export * from './fields.js';
export * from './service-env.js';
