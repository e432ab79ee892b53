export * from './mime.js';
