export * from './channel.js';
export * from './server.js';
export type * from './service-types.js';
export { REQUEST_ID_METADATA_KEY } from './metadata-carrier.js';
