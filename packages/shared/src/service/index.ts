export * from './service-app.js';
export * from './run-service-main.js';
export * from './create-service-app.js';
export * from './wait-for-dependencies.js';
export * from './idle-memory.js';
