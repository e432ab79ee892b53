/** JSON schemas of the developer API (interface.md 4.7, 4.8). They check shape only; the clients
 * service owns the rules (lengths, URIs, grant consistency, scope policy) and names the field. */

const stringList = { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 2048 } } as const;
const nullableString = { type: ['string', 'null'], maxLength: 4096 } as const;

/** Settable fields; others (clientId, clientSecret, developerId, ...) are ignored (interface.md 4.7). */
const settings = {
  name: { type: 'string', maxLength: 1024, description: 'Shown to users on the consent page.' },
  description: { ...nullableString, description: 'Free text for the developer; null clears it.' },
  redirectUris: {
    ...stringList,
    description:
      'Absolute https URLs, or http on a loopback address (127.0.0.1, [::1], localhost); compared exactly.',
  },
  scopes: { ...stringList, description: "The scopes the client may ask for, within the realm's policy." },
  grantTypes: {
    ...stringList,
    description:
      '`authorization_code`, `refresh_token`, `client_credentials` and/or ' +
      '`urn:ietf:params:oauth:grant-type:device_code` (RFC 8628; needs no redirect URI when it is the only user grant).',
  },
  responseTypes: { ...stringList, description: '`code`, with the authorization_code grant.' },
  tokenEndpointAuthMethod: {
    type: 'string',
    maxLength: 64,
    description:
      '`client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none` (a public client).',
  },
  // docs/decisions.md #16 (extension): keys for private_key_jwt.
  jwks: { type: ['object', 'null'], description: 'A JWK Set of public keys for private_key_jwt.' },
  jwksUri: { ...nullableString, description: 'Where the JWK Set for private_key_jwt is published.' },
  // interface.md 4.3: OpenID Connect RP-Initiated and Back-Channel Logout 1.0.
  postLogoutRedirectUris: {
    ...stringList,
    description:
      'Where RP-initiated logout may send the browser back: the rules of redirectUris, compared exactly.',
  },
  backchannelLogoutUri: {
    ...nullableString,
    description: 'An absolute https URL without a fragment that receives logout tokens; null clears it.',
  },
  backchannelLogoutSessionRequired: {
    type: 'boolean',
    description: 'Whether logout tokens must carry `sid` (they always do).',
  },
  // OIDC Dynamic Registration 1.0 section 2 id_token_signed_response_alg (docs/tokens.md #34).
  idTokenSignedResponseAlg: {
    type: 'string',
    maxLength: 64,
    description:
      'How ID tokens are signed: `EdDSA` (the default) or `RS256`. Access tokens are always EdDSA.',
  },
  // RFC 9126 section 6 and RFC 9449 section 5.2 (docs/par-and-dpop.md #4, #11).
  requirePushedAuthorizationRequests: {
    type: 'boolean',
    description: 'Whether authorization requests must first be pushed to `/oauth/par`.',
  },
  dpopBoundAccessTokens: {
    type: 'boolean',
    description: 'Whether every token request must carry a DPoP proof (tokens are then DPoP-bound).',
  },
} as const;

/**
 * Types only (docs/errors.md): clients checks `name` (absent is empty, so 1 to 255 characters)
 * with every other rule, so a missing name is reported beside the other rejected fields.
 */
export const createClientBody = { type: 'object', properties: settings } as const;

export const updateClientBody = {
  type: 'object',
  properties: {
    ...settings,
    enabled: { type: 'boolean', description: 'A disabled client can neither authorize nor get tokens.' },
  },
} as const;

export const clientParams = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', maxLength: 255, description: 'The record `id` or the OAuth `clientId`.' },
  },
} as const;

export const apiKeyParams = {
  type: 'object',
  required: ['id', 'keyId'],
  properties: {
    id: { type: 'string', maxLength: 255, description: 'The record `id` or the OAuth `clientId`.' },
    keyId: { type: 'string', maxLength: 255, description: 'The API key `id`.' },
  },
} as const;

export const createApiKeyBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 1024, description: 'A label for the key.' } },
} as const;

const timestamp = { type: 'integer', description: 'Epoch milliseconds.' } as const;
const nullableTimestamp = {
  type: ['integer', 'null'],
  description: 'Epoch milliseconds; null when never.',
} as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

const clientProperties = {
  id: { type: 'string', description: 'The record id.' },
  clientId: { type: 'string', description: 'The OAuth client_id.' },
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  redirectUris: strings,
  scopes: strings,
  grantTypes: strings,
  responseTypes: strings,
  tokenEndpointAuthMethod: { type: 'string' },
  enabled: { type: 'boolean' },
  requirePkce: { type: 'boolean', description: 'Always true: every client uses PKCE.' },
  createdAt: timestamp,
  updatedAt: timestamp,
  lastUsedAt: nullableTimestamp,
  postLogoutRedirectUris: strings,
  backchannelLogoutUri: { type: ['string', 'null'] },
  backchannelLogoutSessionRequired: { type: 'boolean' },
  idTokenSignedResponseAlg: { type: 'string', enum: ['EdDSA', 'RS256'] },
  requirePushedAuthorizationRequests: { type: 'boolean' },
  dpopBoundAccessTokens: { type: 'boolean' },
} as const;

/** interface.md 2.2. */
export const clientView = {
  type: 'object',
  required: Object.keys(clientProperties),
  additionalProperties: false,
  properties: clientProperties,
} as const;

/** interface.md 2.2: the view plus the secret, in the 201 of create and the 200 of regenerate. */
export const clientWithSecret = {
  type: 'object',
  required: Object.keys(clientProperties),
  additionalProperties: false,
  properties: {
    ...clientProperties,
    clientSecret: {
      type: 'string',
      description: 'The client secret, shown this once (client_secret_basic and client_secret_post only).',
    },
  },
} as const;

export const clientList = {
  type: 'object',
  required: ['clients'],
  additionalProperties: false,
  properties: { clients: { type: 'array', items: clientView } },
} as const;

const apiKeyProperties = {
  id: { type: 'string' },
  clientId: { type: 'string', description: 'The record id of the client.' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'The first 11 characters of the key (`ak_` and 8 hex).' },
  last4: { type: 'string', description: 'The last 4 characters of the key.' },
  createdAt: timestamp,
  lastUsedAt: nullableTimestamp,
  revokedAt: nullableTimestamp,
} as const;

/** interface.md 2.4, masked. */
export const apiKeyView = {
  type: 'object',
  required: Object.keys(apiKeyProperties),
  additionalProperties: false,
  properties: apiKeyProperties,
} as const;

/** interface.md 2.4: the one response that carries the plaintext key. */
export const apiKeyWithKey = {
  type: 'object',
  required: [...Object.keys(apiKeyProperties), 'key'],
  additionalProperties: false,
  properties: {
    ...apiKeyProperties,
    key: { type: 'string', description: 'The plaintext key (`ak_` and 64 hex), shown this once.' },
  },
} as const;

export const apiKeyList = {
  type: 'object',
  required: ['apiKeys'],
  additionalProperties: false,
  properties: { apiKeys: { type: 'array', items: apiKeyView } },
} as const;

export const noContent = { type: 'null' } as const;
