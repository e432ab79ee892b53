export * from './browser-session.js';
