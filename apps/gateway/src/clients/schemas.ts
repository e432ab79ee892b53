/** JSON schemas of the developer API (interface.md 4.7, 4.8). They check shape only; the clients
 * service owns the rules (lengths, URIs, grant consistency, scope policy) and names the field. */

const stringList = { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 2048 } } as const;
const nullableString = { type: ['string', 'null'], maxLength: 4096 } as const;

/** Settable fields; others (clientId, clientSecret, developerId, ...) are ignored (interface.md 4.7). */
const settings = {
  name: { type: 'string', maxLength: 1024 },
  description: nullableString,
  redirectUris: stringList,
  scopes: stringList,
  grantTypes: stringList,
  responseTypes: stringList,
  tokenEndpointAuthMethod: { type: 'string', maxLength: 64 },
  // docs/decisions.md #16 (extension): keys for private_key_jwt.
  jwks: { type: ['object', 'null'] },
  jwksUri: nullableString,
} as const;

export const createClientBody = { type: 'object', required: ['name'], properties: settings } as const;

export const updateClientBody = {
  type: 'object',
  properties: { ...settings, enabled: { type: 'boolean' } },
} as const;

export const clientParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 255 } },
} as const;

export const apiKeyParams = {
  type: 'object',
  required: ['id', 'keyId'],
  properties: { id: { type: 'string', maxLength: 255 }, keyId: { type: 'string', maxLength: 255 } },
} as const;

export const createApiKeyBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 1024 } },
} as const;

const timestamp = { type: 'integer' } as const;
const nullableTimestamp = { type: ['integer', 'null'] } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

const clientProperties = {
  id: { type: 'string' },
  clientId: { type: 'string' },
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  redirectUris: strings,
  scopes: strings,
  grantTypes: strings,
  responseTypes: strings,
  tokenEndpointAuthMethod: { type: 'string' },
  enabled: { type: 'boolean' },
  requirePkce: { type: 'boolean' },
  createdAt: timestamp,
  updatedAt: timestamp,
  lastUsedAt: nullableTimestamp,
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
  properties: { ...clientProperties, clientSecret: { type: 'string' } },
} as const;

export const clientList = {
  type: 'object',
  required: ['clients'],
  additionalProperties: false,
  properties: { clients: { type: 'array', items: clientView } },
} as const;

const apiKeyProperties = {
  id: { type: 'string' },
  clientId: { type: 'string' },
  name: { type: 'string' },
  prefix: { type: 'string' },
  last4: { type: 'string' },
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
  properties: { ...apiKeyProperties, key: { type: 'string' } },
} as const;

export const apiKeyList = {
  type: 'object',
  required: ['apiKeys'],
  additionalProperties: false,
  properties: { apiKeys: { type: 'array', items: apiKeyView } },
} as const;

export const noContent = { type: 'null' } as const;
