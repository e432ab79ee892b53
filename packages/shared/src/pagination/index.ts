export * from './keyset-cursor.js';
