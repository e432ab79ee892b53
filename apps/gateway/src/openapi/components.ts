import { SESSION_COOKIE } from '@authz/shared/protocol';
import type { JsonSchema, Tag } from './types.js';

const SCHEMAS = '#/components/schemas/';

/** A reference to one of the document's shared schemas. */
export const schemaRef = (name: keyof typeof errorSchemas) => ({ $ref: `${SCHEMAS}${name}` });

/**
 * The two error bodies the gateway's error handler renders (plugins/error-handler.ts,
 * docs/errors.md): the API envelope, and the RFC 6749 section 5.2 body on the OAuth routes.
 */
export const errorSchemas = {
  FieldViolation: {
    type: 'object',
    required: ['path', 'message'],
    additionalProperties: false,
    description: 'One rejected field.',
    properties: {
      path: {
        type: 'string',
        description:
          'Dotted pointer to the field, e.g. `redirectUris.0`; `(body)`, `(query)` or `(url)` for the whole of it.',
      },
      message: { type: 'string', description: 'What is wrong with it, e.g. `must be string`.' },
    },
  },
  ApiError: {
    type: 'object',
    required: ['error', 'statusCode', 'code'],
    additionalProperties: false,
    description:
      'The error envelope of the JSON APIs. Every error response carries `Cache-Control: no-store`.',
    properties: {
      error: {
        type: 'string',
        description: 'A message for people; it never names an internal cause.',
        examples: ['Validation error', 'Not found', 'Too many requests'],
      },
      statusCode: { type: 'integer', description: 'The HTTP status, repeated.' },
      code: {
        type: 'string',
        description: 'A stable machine-readable code, the one to branch on.',
        examples: [
          'VALIDATION_ERROR',
          'MALFORMED_BODY',
          'INVALID_TOKEN',
          'INVALID_CSRF_TOKEN',
          'UNAUTHORIZED',
          'INVALID_CREDENTIALS',
          'FORBIDDEN',
          'NOT_FOUND',
          'CONFLICT',
          'PAYLOAD_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'RATE_LIMITED',
          'INTERNAL_ERROR',
          'SERVICE_UNAVAILABLE',
          'UPSTREAM_TIMEOUT',
        ],
      },
      details: {
        type: 'array',
        description: 'With `VALIDATION_ERROR` only: one entry per rejected field.',
        items: { $ref: `${SCHEMAS}FieldViolation` },
      },
    },
  },
  OAuthError: {
    type: 'object',
    required: ['error', 'code', 'statusCode'],
    additionalProperties: false,
    description:
      'The RFC 6749 section 5.2 error body of the OAuth endpoints, plus `code` and `statusCode`. ' +
      'Sent with `Cache-Control: no-store` and `Pragma: no-cache`.',
    properties: {
      error: {
        type: 'string',
        description:
          'The registered error code (RFC 6749, RFC 6750, RFC 7591, RFC 8707, OpenID Connect Core). ' +
          'A failure with no registered code is `invalid_request` (4xx), `rate_limited` (429), ' +
          '`temporarily_unavailable` (503) or `server_error` (500).',
        examples: [
          'invalid_request',
          'invalid_client',
          'invalid_grant',
          'unauthorized_client',
          'unsupported_grant_type',
          'invalid_scope',
          'invalid_target',
          'invalid_token',
          'insufficient_scope',
          'invalid_redirect_uri',
          'invalid_client_metadata',
          'rate_limited',
          'temporarily_unavailable',
          'server_error',
        ],
      },
      error_description: {
        type: 'string',
        description: 'What was wrong, when the server says; absent on every client authentication failure.',
      },
      code: { type: 'string', description: '`error` in upper case, e.g. `INVALID_GRANT`.' },
      statusCode: { type: 'integer', description: 'The HTTP status, repeated.' },
    },
  },
} as const;

/**
 * How callers authenticate. client_secret_post, private_key_jwt and public clients send their
 * credentials as form fields (documented on each endpoint), which security schemes cannot express.
 */
export const securitySchemes = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An access token in `Authorization: Bearer`. The developer API and logout take only first-party ' +
      'user tokens from `POST /auth/login`; UserInfo takes any access token issued with the `openid` scope. ' +
      'A refusal answers `WWW-Authenticate: Bearer` naming the protected-resource metadata.',
  },
  clientSecretBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'Client authentication `client_secret_basic` (RFC 6749 section 2.3.1): the form-urlencoded ' +
      '`client_id` and `client_secret`, joined by `:` and Base64-encoded. For the client_credentials ' +
      'grant of a development client, an API key may stand in for the secret.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The browser session set by the hosted sign-in page (host-only, Secure, HttpOnly).',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      "The session's CSRF token (from `GET /consents/` or the hosted pages), required with the " +
      'session cookie on every state-changing cookie-authenticated call.',
  },
} as const;

export const tags: { name: Tag; description: string }[] = [
  {
    name: 'OAuth',
    description:
      'The OAuth 2.1 / OpenID Connect endpoints: authorization, token, UserInfo, introspection, ' +
      'revocation and dynamic client registration. They take `application/x-www-form-urlencoded` ' +
      'bodies (registration: JSON) and answer errors with the OAuthError body.',
  },
  { name: 'Discovery', description: 'Public, cacheable metadata documents and signing keys.' },
  {
    name: 'Accounts',
    description: 'First-party accounts: registration, sign-in, logout, email verification, wallet linking.',
  },
  {
    name: 'Developer API',
    description:
      "OAuth clients and their API keys, managed by the token subject's developer account. " +
      "Another developer's client answers 404, never 403.",
  },
  { name: 'Consents', description: "The signed-in user's consents, authenticated by the session cookie." },
  {
    name: 'Wallet',
    description:
      'The OpenID for Verifiable Presentations transport wallets talk to. Every wallet route answers 404 ' +
      'while wallet federation is off (`WALLET_FEDERATION_ENABLED`).',
  },
  {
    name: 'Admin',
    description:
      'The operator API: accounts, clients of every developer, the audit log and the signing keys. A ' +
      'first-party user token of an account holding the admin role (granted by the `grant-admin` command), ' +
      'checked on every call.',
  },
  { name: 'System', description: 'Greeting, health, metrics and this document.' },
];

/** Headers that recur in responses. */
export const headers = {
  retryAfter: { type: 'string', description: 'Seconds to wait before trying again.' },
  wwwAuthenticateBearer: {
    type: 'string',
    description:
      'The RFC 6750 challenge: `Bearer realm="authz", error="…", resource_metadata="…"`, naming the ' +
      'protected-resource metadata (RFC 9728); without `error` when no token was sent.',
  },
  wwwAuthenticateBasic: {
    type: 'string',
    description: '`Basic realm="authz"`, only when the client tried HTTP Basic.',
  },
  location: { type: 'string', description: 'Where the browser goes next.' },
} satisfies Record<string, JsonSchema>;
