/** JSON schemas of the first-party auth routes (interface.md 4.2). Semantics (email syntax, password
 * strength, token format) are checked by identity, which owns them; these check shape. */

const messageBody = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string', description: 'What happened, for people.' } },
} as const;

const email = {
  type: 'string',
  maxLength: 320,
  description: 'The email address, the account name.',
} as const;
const password = {
  type: 'string',
  maxLength: 1024,
  description: 'The password: 8 to 128 characters after NFKC normalisation.',
} as const;

/**
 * interface.md 7, docs/errors.md: types only. identity checks presence, address syntax,
 * password strength and realm together and reports every rejected field; a `required` or
 * `format` here would answer first and hide identity's findings on the other fields.
 */
export const registerBody = {
  type: 'object',
  properties: {
    email: { ...email, description: `${email.description} Required.` },
    password: { ...password, description: `${password.description} Required.` },
    realmId: {
      type: 'string',
      description: 'The realm to create the account in; the default realm when absent.',
    },
  },
} as const;

export const credentialsBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: { email, password },
} as const;

export const emailBody = {
  type: 'object',
  required: ['email'],
  properties: { email },
} as const;

export const verifyQuery = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 256, description: 'The token of the verification link; single use.' },
  },
} as const;

export const firstPartyTokenResponse = {
  type: 'object',
  required: ['access_token', 'refresh_token', 'expires_in', 'token_type'],
  additionalProperties: false,
  properties: {
    access_token: {
      type: 'string',
      description: 'A first-party access token (JWT) for the developer API and logout.',
    },
    refresh_token: {
      type: 'string',
      description:
        'Renews the access token at POST /oauth/token (grant_type=refresh_token); rotates on each use.',
    },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires.' },
    token_type: { type: 'string', description: 'Always `Bearer`.' },
  },
} as const;

export const logoutResponse = {
  type: 'object',
  required: ['success', 'message'],
  additionalProperties: false,
  properties: { success: { type: 'boolean', description: 'Always true.' }, message: { type: 'string' } },
} as const;

export const verifyResponse = {
  type: 'object',
  required: ['message', 'email'],
  additionalProperties: false,
  properties: {
    message: { type: 'string' },
    email: { type: 'string', description: 'The address now verified.' },
  },
} as const;

export { messageBody as messageResponse };
