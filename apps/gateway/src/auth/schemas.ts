/** JSON schemas of the first-party auth routes (interface.md 4.2). Semantics (email syntax, password
 * strength, token format) are checked by identity, which owns them; these check shape. */

const messageBody = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string' } },
} as const;

export const registerBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', maxLength: 320 },
    password: { type: 'string', maxLength: 1024 },
    realmId: { type: 'string' },
  },
} as const;

export const credentialsBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', maxLength: 320 },
    password: { type: 'string', maxLength: 1024 },
  },
} as const;

export const emailBody = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', maxLength: 320 } },
} as const;

export const verifyQuery = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', maxLength: 256 } },
} as const;

export const firstPartyTokenResponse = {
  type: 'object',
  required: ['access_token', 'refresh_token', 'expires_in', 'token_type'],
  additionalProperties: false,
  properties: {
    access_token: { type: 'string' },
    refresh_token: { type: 'string' },
    expires_in: { type: 'integer' },
    token_type: { type: 'string' },
  },
} as const;

export const logoutResponse = {
  type: 'object',
  required: ['success', 'message'],
  additionalProperties: false,
  properties: { success: { type: 'boolean' }, message: { type: 'string' } },
} as const;

export const verifyResponse = {
  type: 'object',
  required: ['message', 'email'],
  additionalProperties: false,
  properties: { message: { type: 'string' }, email: { type: 'string' } },
} as const;

export { messageBody as messageResponse };
