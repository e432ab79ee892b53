/** RFC 8693 section 3: the token type identifiers this server knows (interface.md 4.3). */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** draft-ietf-oauth-identity-assertion-authz-grant: an Identity Assertion JWT Authorization Grant. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** What a token exchange request asks for (interface.md 4.3 requested_token_type). */
export type RequestedToken = 'access_token' | 'id_jag';
