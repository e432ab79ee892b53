export * from './service-app.js';
export * from './run-service-main.js';
