export * from './mime.js';
export * from './queue-contract.js';
export * from './account-mail-contract.js';
