export * from './mime.js';
export * from './queue-contract.js';
