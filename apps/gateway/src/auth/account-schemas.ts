import { userViewSchema } from './user-view.js';

/** JSON schemas of the account routes of interface.md 4.10. identity checks meaning; these check shape. */

export const sessionView = {
  type: 'object',
  required: ['id', 'createdAt', 'lastSeenAt', 'userAgent', 'current'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The session id, for DELETE /auth/sessions/{id}.' },
    createdAt: { type: 'integer', description: 'Epoch milliseconds of the sign-in.' },
    lastSeenAt: {
      type: 'integer',
      description: 'Epoch milliseconds of the last use noted; coalesced, so it may lag a few minutes.',
    },
    userAgent: { type: ['string', 'null'], description: 'The User-Agent of the sign-in, when one was sent.' },
    current: { type: 'boolean', description: 'Whether the calling token belongs to this session.' },
  },
} as const;

export const sessionList = {
  type: 'object',
  required: ['sessions'],
  additionalProperties: false,
  properties: { sessions: { type: 'array', items: sessionView } },
} as const;

export const sessionParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 128, description: 'The session id.' } },
} as const;

/** docs/errors.md: types only; identity names a missing password (`is required`). */
export const deleteAccountBody = {
  type: 'object',
  properties: {
    password: { type: 'string', maxLength: 1024, description: "The account's current password. Required." },
  },
} as const;

export const meView = {
  ...userViewSchema,
  required: [...userViewSchema.required, 'name'],
  properties: {
    ...userViewSchema.properties,
    name: {
      type: ['string', 'null'],
      description: 'The name the user set (the `name` claim, interface.md 2.5); null until set.',
    },
  },
} as const;

/** docs/errors.md: types here; a missing name is named by the route, its length by identity. */
export const updateMeBody = {
  type: 'object',
  properties: {
    name: {
      type: ['string', 'null'],
      maxLength: 1024,
      description: 'Required: 1 to 255 characters (trimmed), or null to clear the name.',
    },
  },
} as const;

export const noContent = { type: 'null', description: 'No content.' } as const;
