/**
 * JSON schemas of the operator API (interface.md 4.15). They check shape; identity and clients
 * check meaning (a malformed id or cursor is their 400). Timestamps are epoch milliseconds.
 */

const epochMs = (description: string) => ({ type: 'integer', description }) as const;
const nullableEpochMs = (description: string) => ({ type: ['integer', 'null'], description }) as const;

export const cursorQuery = {
  type: 'string',
  maxLength: 512,
  description: 'The `nextCursor` of the previous page; absent for the first page.',
} as const;

export const limitQuery = {
  type: 'string',
  pattern: '^[0-9]{1,4}$',
  description: 'Page size, 1 to 100 (default 50).',
} as const;

export const nextCursor = {
  type: ['string', 'null'],
  description: 'Pass as `cursor` for the next page; null on the last page.',
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 128, description: 'The id (a UUID).' } },
} as const;

export const adminUser = {
  type: 'object',
  required: [
    'id',
    'email',
    'emailVerified',
    'name',
    'disabled',
    'disabledAt',
    'admin',
    'createdAt',
    'updatedAt',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The user id (the `sub` of its tokens).' },
    email: { type: 'string' },
    emailVerified: { type: 'boolean' },
    name: { type: ['string', 'null'], description: 'The name the user set; null until set.' },
    disabled: {
      type: 'boolean',
      description: 'Whether an admin disabled the account: no sign-in by any method.',
    },
    disabledAt: nullableEpochMs('When it was disabled; null while enabled.'),
    admin: { type: 'boolean', description: 'Whether the account holds the admin role.' },
    createdAt: epochMs('When the account was created.'),
    updatedAt: nullableEpochMs('The last change; null until the first.'),
  },
} as const;

export const userListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    query: {
      type: 'string',
      maxLength: 254,
      description: 'Part of the address or the name (case-insensitive), or an exact user id.',
    },
    cursor: cursorQuery,
    limit: limitQuery,
  },
} as const;

export const userList = {
  type: 'object',
  required: ['users', 'nextCursor'],
  additionalProperties: false,
  properties: { users: { type: 'array', items: adminUser }, nextCursor },
} as const;

export const updateUserBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    disabled: {
      type: 'boolean',
      description: 'true: no sign-in, sessions and tokens end; false: sign-in again.',
    },
    emailVerified: { type: 'boolean', description: 'Marks the address verified or not.' },
  },
} as const;

export const endedSessions = {
  type: 'object',
  required: ['endedSessions'],
  additionalProperties: false,
  properties: { endedSessions: { type: 'integer', description: 'How many live sessions ended.' } },
} as const;

export const message = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string' } },
} as const;

export const adminClient = {
  type: 'object',
  required: [
    'id',
    'clientId',
    'name',
    'developerId',
    'environment',
    'enabled',
    'tokenEndpointAuthMethod',
    'grantTypes',
    'redirectUris',
    'createdAt',
    'updatedAt',
    'lastUsedAt',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The record id.' },
    clientId: { type: 'string', description: 'The OAuth client id.' },
    name: { type: 'string' },
    developerId: {
      type: ['string', 'null'],
      description: 'The owning developer; null for dynamically registered clients.',
    },
    environment: { type: 'string', enum: ['development', 'staging', 'production', 'unset'] },
    enabled: { type: 'boolean' },
    tokenEndpointAuthMethod: { type: 'string' },
    grantTypes: { type: 'array', items: { type: 'string' } },
    redirectUris: { type: 'array', items: { type: 'string' } },
    createdAt: epochMs('When the client was created.'),
    updatedAt: epochMs('The last change.'),
    lastUsedAt: nullableEpochMs('The last token request; null until one.'),
  },
} as const;

export const clientListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    developerId: { type: 'string', maxLength: 128, description: "Only this developer's clients." },
    cursor: cursorQuery,
    limit: limitQuery,
  },
} as const;

export const clientList = {
  type: 'object',
  required: ['clients', 'nextCursor'],
  additionalProperties: false,
  properties: { clients: { type: 'array', items: adminClient }, nextCursor },
} as const;

export const updateClientBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    enabled: { type: 'boolean', description: 'false: the client authenticates nowhere until enabled again.' },
    environment: {
      type: 'string',
      maxLength: 32,
      description: 'development, staging, production or unset; leaving development revokes its API keys.',
    },
  },
} as const;

export const auditEvent = {
  type: 'object',
  required: ['id', 'type', 'actorUserId', 'ip', 'userAgent', 'details', 'occurredAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The event id.' },
    type: { type: 'string', description: 'What happened, e.g. `login_success` or `admin_user_disabled`.' },
    actorUserId: {
      type: ['string', 'null'],
      description: "Who acted (the admin for admin actions); null when nobody's or a deleted account's.",
    },
    ip: { type: ['string', 'null'] },
    userAgent: { type: ['string', 'null'] },
    details: {
      type: 'object',
      additionalProperties: true,
      description: 'Small, never secret details; `targetUserId` names the account an admin acted on.',
    },
    occurredAt: epochMs('When it happened.'),
  },
} as const;

export const auditEventQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    userId: { type: 'string', maxLength: 128, description: 'Events this user did or an admin did to them.' },
    type: { type: 'string', maxLength: 64, description: 'Only events of this type.' },
    since: {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description: 'Epoch milliseconds: events at or after it.',
    },
    cursor: cursorQuery,
    limit: limitQuery,
  },
} as const;

export const auditEventList = {
  type: 'object',
  required: ['events', 'nextCursor'],
  additionalProperties: false,
  properties: { events: { type: 'array', items: auditEvent }, nextCursor },
} as const;

export const signingKey = {
  type: 'object',
  required: ['kid', 'alg', 'state', 'createdAt', 'activatesAt', 'retiresAt', 'publishedUntil'],
  additionalProperties: false,
  properties: {
    kid: { type: 'string' },
    alg: { type: 'string', enum: ['EdDSA', 'RS256'] },
    state: {
      type: 'string',
      enum: ['pending', 'active', 'retiring'],
      description:
        '`pending`: published, signs from `activatesAt`; `active`: signs; `retiring`: signs no more, still published ' +
        'so that the tokens it signed verify.',
    },
    createdAt: epochMs('When the key was made.'),
    activatesAt: epochMs('When it signs from.'),
    retiresAt: nullableEpochMs('When it stops signing; null while it is the current key.'),
    publishedUntil: nullableEpochMs('When it leaves the JWKS; null while it is the current key.'),
  },
} as const;

export const signingKeyList = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: { keys: { type: 'array', items: signingKey } },
} as const;

export const rotation = {
  type: 'object',
  required: ['keys', 'activatesAt'],
  additionalProperties: false,
  properties: {
    keys: { type: 'array', items: signingKey, description: 'The new keys, one per algorithm.' },
    activatesAt: epochMs('When the new keys start signing; until then the outgoing keys sign.'),
  },
} as const;

export const noContent = { type: 'null', description: 'No content.' } as const;
