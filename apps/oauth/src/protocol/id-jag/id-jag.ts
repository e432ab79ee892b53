/** draft-ietf-oauth-identity-assertion-authz-grant section 3: the JWT `typ` of an ID-JAG. */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';

/** RFC 7523 section 2.1: the grant that redeems an ID-JAG at the target authorization server. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The draft's authorization grant profile, advertised in discovery while the feature is on. */
export const ID_JAG_GRANT_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** Lifetime of an ID-JAG we issue: one request's worth (docs/enterprise-assertions.md #4). */
export const ID_JAG_TTL_SECONDS = 300;
