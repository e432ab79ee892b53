export { cacheLifetimeSeconds } from './cache-lifetime.js';
export { fetchPublicDocument, type FetchedDocument } from './fetch-public-document.js';
export { outboundFetch, type OutboundFetch, type OutboundRequestInit } from './outbound-fetch.js';
export { postForm } from './post-form.js';
export { OutboundFetchError, type OutboundFailureReason } from './outbound-fetch-error.js';
export type { OutboundPolicy } from './outbound-policy.js';
export { remoteKeySets } from './remote-key-set.js';
