import type { RawParameter } from '../token/token-parameters.js';

/** RFC 9126 section 2.2: a request URI lives 60 seconds (docs/par-and-dpop.md #2). */
export const PUSHED_AUTHORIZATION_TTL_SECONDS = 60;

/** RFC 9126 section 2.2: the prefix of every request URI, followed by the store's handle. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/**
 * A pushed authorization request, behind its request URI's handle: the authorization
 * parameters as validated, without the client's credentials, for /oauth/authorize to run again.
 */
export interface PushedAuthorization {
  clientId: string;
  parameters: RawParameter[];
}
