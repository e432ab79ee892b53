import { headers } from '../components.js';
import type { JsonSchema, OperationDocs, Security } from '../types.js';

/** Repeatable fields are arrays: `resource=a&resource=b` (form style, exploded). */
const repeatable = (description: string) => ({
  type: 'array',
  items: { type: 'string', format: 'uri' },
  description,
});

const resource = repeatable(
  'RFC 8707 resource indicator: an absolute URI without a fragment naming where the token will be used; may repeat. ' +
    "Must be among the client's audiences when it has a list.",
);

/** RFC 6749 section 4.1.1, OAuth 2.1, OpenID Connect Core 3.1.2.1 (docs/authorization.md #1-#6). */
export const authorizationRequest: JsonSchema = {
  type: 'object',
  required: ['response_type', 'client_id', 'code_challenge', 'code_challenge_method'],
  properties: {
    response_type: {
      type: 'string',
      enum: ['code'],
      description: 'Only the authorization code flow exists.',
    },
    client_id: {
      type: 'string',
      description:
        'The client id: a registered one, or, while client ID metadata documents are enabled, the https URL of one.',
    },
    redirect_uri: {
      type: 'string',
      format: 'uri',
      description:
        'Compared as an exact string with the registered ones; may be omitted when exactly one is registered. ' +
        'For a registered http loopback URI (127.0.0.1, [::1], localhost) any port is accepted (RFC 8252 section 7.3).',
    },
    scope: {
      type: 'string',
      description:
        "Space-separated scopes within the client's allow-list; `openid` asks for an ID token, " +
        '`offline_access` for a refresh token.',
      examples: ['openid email offline_access'],
    },
    state: {
      type: 'string',
      maxLength: 512,
      description: 'Opaque value returned unchanged with the code or the error; at most 512 characters.',
    },
    code_challenge: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{43}$',
      description:
        'PKCE (RFC 7636), required of every client: BASE64URL(SHA-256(code_verifier)), 43 characters.',
    },
    code_challenge_method: { type: 'string', enum: ['S256'], description: '`plain` is refused.' },
    nonce: {
      type: 'string',
      maxLength: 512,
      description: 'Copied into the ID token (OpenID Connect); at most 512 characters.',
    },
    prompt: {
      type: 'string',
      description:
        'Space-separated subset of `none`, `login` and `consent`; `none` alone. `none` answers ' +
        '`login_required` or `consent_required` rather than showing a page.',
    },
    max_age: {
      type: 'integer',
      minimum: 0,
      description: 'Seconds since the last sign-in beyond which the user signs in again.',
    },
    response_mode: { type: 'string', enum: ['query'], description: 'Only `query` is supported.' },
    resource,
  },
};

const authorizationDescription =
  'Starts the authorization code flow with PKCE. The request is checked in two phases: until the client and its ' +
  'redirect URI are trusted, a failure is an HTML error page (never a redirect); after that, every failure is ' +
  'redirected to the client with `error`, `error_description`, `state` and `iss`. Parameters sent twice are ' +
  'refused (only `resource` repeats). Without a session (or with `prompt=login`, or past `max_age`) the browser ' +
  'is sent to the hosted sign-in page, then to the consent page when the scopes were not granted before. ' +
  'The request and request_uri parameters are not supported.';

function authorizationRedirect(status: number) {
  return {
    description:
      `Redirect (${status}): to the client's redirect URI with \`code\`, \`state\` and \`iss\` (RFC 9207), or ` +
      'with `error`, `error_description`, `state` and `iss`; or to the hosted sign-in or consent page. ' +
      '`Cache-Control: no-store`.',
    headers: { Location: headers.location },
  };
}

const authorizationErrorPage = {
  description:
    'The client or its redirect URI cannot be trusted (missing, unknown or disabled `client_id`, an unregistered ' +
    '`redirect_uri`, either sent twice): an HTML error page, never a redirect (RFC 6749 section 4.1.2.1). ' +
    'A query the gateway itself refuses (U+0000 in a value) is the JSON error body.',
  content: {
    'text/html': { type: 'string' },
    'application/json': { $ref: '#/components/schemas/OAuthError' },
  },
};

/** client_secret_post (RFC 6749 section 2.3.1) and public clients. */
export const secretFields = {
  client_id: {
    type: 'string',
    description:
      'With `client_secret` for client_secret_post; alone for a public client (method `none`). ' +
      'When Basic is used too, it must name the same client.',
  },
  client_secret: {
    type: 'string',
    description:
      'client_secret_post: the client secret (for the client_credentials grant of a development client, an API key ' +
      'may stand in for it). Never sent together with Basic or an assertion.',
  },
};

/** private_key_jwt (RFC 7523 section 2.2). */
export const assertionFields = {
  client_assertion_type: {
    type: 'string',
    enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'],
    description: 'private_key_jwt client authentication.',
  },
  client_assertion: {
    type: 'string',
    description:
      "A JWT signed with one of the client's registered keys (`jwks` or `jwks_uri`), `aud` this issuer as a " +
      'single string (not the token endpoint, not an array); each assertion is accepted once.',
  },
};

const tokenRequest: JsonSchema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: {
      type: 'string',
      description:
        'The grant: `authorization_code`, `refresh_token`, `client_credentials`, ' +
        '`urn:ietf:params:oauth:grant-type:token-exchange` (agents acting for a user, RFC 8693), ' +
        '`urn:ietf:params:oauth:grant-type:jwt-bearer` (ID-JAG, only while enterprise assertions are enabled), or ' +
        '`urn:ietf:params:oauth:grant-type:device_code` (the device flow, RFC 8628). ' +
        'A grant sees only the fields it declares.',
      examples: ['authorization_code', 'refresh_token', 'client_credentials'],
    },
    code: { type: 'string', description: 'authorization_code: the code from the redirect; single use.' },
    device_code: {
      type: 'string',
      description:
        '`urn:ietf:params:oauth:grant-type:device_code` (RFC 8628): the device code from ' +
        '`/oauth/device_authorization`; single use.',
    },
    redirect_uri: {
      type: 'string',
      format: 'uri',
      description: 'authorization_code: the `redirect_uri` of the authorization request, when it had one.',
    },
    code_verifier: {
      type: 'string',
      description:
        'authorization_code: the PKCE verifier (43 to 128 characters) whose S256 hash was the challenge.',
    },
    refresh_token: {
      type: 'string',
      description:
        'refresh_token: the newest refresh token of the family. Each use rotates it; presenting a rotated one ' +
        'revokes the whole family, so refreshes must not run concurrently.',
    },
    scope: {
      type: 'string',
      description:
        'Space-separated scopes. client_credentials: within the allow-list (none asked, none granted); ' +
        'refresh_token and token exchange: may narrow, never widen.',
    },
    resource,
    audience: {
      type: 'array',
      items: { type: 'string' },
      description: "Token exchange (RFC 8693 section 2.1): may repeat; within the subject token's audience.",
    },
    subject_token: {
      type: 'string',
      description: 'Token exchange: the access token of the user the agent acts for.',
    },
    subject_token_type: {
      type: 'string',
      enum: ['urn:ietf:params:oauth:token-type:access_token'],
      description: 'Token exchange: the type of `subject_token`.',
    },
    actor_token: {
      type: 'string',
      description: "Token exchange: the agent's own access token, when the agent acts through another.",
    },
    actor_token_type: {
      type: 'string',
      enum: ['urn:ietf:params:oauth:token-type:access_token'],
      description: 'Token exchange: with `actor_token` and only with it.',
    },
    requested_token_type: {
      type: 'string',
      description:
        'Token exchange: absent or `urn:ietf:params:oauth:token-type:access_token`; ' +
        '`urn:ietf:params:oauth:token-type:id-jag` while enterprise assertions are enabled.',
    },
    assertion: {
      type: 'string',
      description: 'jwt-bearer: the ID-JAG (identity assertion authorization grant) from a trusted issuer.',
    },
    ...secretFields,
    ...assertionFields,
  },
};

/** Introspection and revocation take the two shared-secret methods only. */
const tokenLookup = (extra: string): JsonSchema => ({
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', description: `The access or refresh token. ${extra}` },
    token_type_hint: {
      type: 'string',
      enum: ['access_token', 'refresh_token'],
      description: 'Which kind to look up first; advisory, an unknown hint is ignored.',
    },
    ...secretFields,
  },
});

export const formOnly = { 415: 'The body is not `application/x-www-form-urlencoded`.' };
export const clientAuthFailed = {
  401:
    '`invalid_client`: client authentication failed, always without a description; ' +
    '`WWW-Authenticate: Basic` when HTTP Basic was tried.',
};
export const optionalBasic: Security = [{ clientSecretBasic: [] }, {}];

export const oauthOperations: OperationDocs = {
  'GET /oauth/authorize': {
    operationId: 'authorize',
    summary: 'Authorization request',
    description: authorizationDescription,
    tag: 'OAuth',
    security: [{ sessionCookie: [] }, {}],
    querystring: authorizationRequest,
    responses: { 302: authorizationRedirect(302), 400: authorizationErrorPage },
  },
  'POST /oauth/authorize': {
    operationId: 'authorizePost',
    summary: 'Authorization request (form post)',
    description: `${authorizationDescription} The POST form (OpenID Connect Core 3.1.2.1) answers 303, so the browser does not resend it.`,
    tag: 'OAuth',
    security: [{ sessionCookie: [] }, {}],
    body: { 'application/x-www-form-urlencoded': authorizationRequest },
    responses: { 303: authorizationRedirect(303), 400: authorizationErrorPage },
    errors: formOnly,
  },
  'POST /oauth/token': {
    operationId: 'token',
    summary: 'Token endpoint',
    description:
      'Runs a grant (RFC 6749 section 3.2). Clients authenticate with HTTP Basic, client_secret_post, ' +
      'private_key_jwt or, when public, `client_id` alone; exactly one method, the one registered. ' +
      'Fields sent twice are refused, except `resource` and `audience`; empty fields count as absent. ' +
      'With a `DPoP` proof header (RFC 9449) the access token is DPoP-bound (`token_type` `DPoP`); the proof must ' +
      'carry the nonce of the `DPoP-Nonce` response header, which a first proof without it is answered with ' +
      '(`use_dpop_nonce`). Browser-based clients may call it (CORS, no credentials).',
    tag: 'OAuth',
    security: optionalBasic,
    body: { 'application/x-www-form-urlencoded': tokenRequest },
    responses: { 200: { description: 'The tokens (RFC 6749 section 5.1). `Cache-Control: no-store`.' } },
    errors: {
      400:
        '`invalid_request`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope`, ' +
        '`invalid_target`, `invalid_dpop_proof` or `use_dpop_nonce`, mostly with an `error_description`; the device ' +
        'flow adds `authorization_pending`, `slow_down`, `access_denied` and `expired_token` (RFC 8628 section 3.5).',
      ...clientAuthFailed,
      ...formOnly,
    },
  },
  'POST /oauth/introspect': {
    operationId: 'introspect',
    summary: 'Token introspection',
    description:
      'RFC 7662, for resource servers, server to server (no CORS). Only confidential clients with a shared secret ' +
      '(client_secret_basic or client_secret_post) may ask, and only about tokens issued to them or naming them in `aud`.',
    tag: 'OAuth',
    security: optionalBasic,
    body: { 'application/x-www-form-urlencoded': tokenLookup('') },
    responses: {
      200: {
        description:
          'The token state. Anything not active, whatever the reason, is exactly `{ "active": false }`. ' +
          '`Cache-Control: no-store`.',
      },
    },
    errors: {
      400: '`invalid_request`: no `token`, or a field sent twice.',
      ...clientAuthFailed,
      ...formOnly,
    },
  },
  'POST /oauth/revoke': {
    operationId: 'revoke',
    summary: 'Token revocation',
    description:
      "RFC 7009. Revokes an access token of the caller (for its remaining lifetime) or a refresh token's whole " +
      'family with its access tokens. Shared-secret client authentication only; browser-based clients may call it (CORS).',
    tag: 'OAuth',
    security: optionalBasic,
    body: {
      'application/x-www-form-urlencoded': tokenLookup(
        "Unknown, expired, already revoked or other clients' tokens answer 200 all the same.",
      ),
    },
    responses: { 200: { description: 'Done, or nothing to do: an empty body either way.' } },
    errors: { ...clientAuthFailed, ...formOnly },
  },
};
