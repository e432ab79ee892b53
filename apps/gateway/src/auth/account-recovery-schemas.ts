/**
 * JSON schemas of the account-lifecycle routes (interface.md 4.10). As at
 * /auth/register (docs/errors.md "Gateway-specific choices"), types and sizes only: identity
 * checks presence, token shape, address syntax and password strength and names every field.
 */

const token = {
  type: 'string',
  maxLength: 256,
  description: 'The token of the mailed link: 64 hexadecimal characters, single use.',
} as const;
const password = {
  type: 'string',
  maxLength: 1024,
  description: 'A password: 8 to 128 characters after NFKC normalisation, not a common one.',
} as const;
const email = { type: 'string', maxLength: 320, description: 'An email address.' } as const;

export const forgotPasswordBody = {
  type: 'object',
  properties: { email: { ...email, description: 'The address of the account. Required.' } },
} as const;

export const resetPasswordBody = {
  type: 'object',
  properties: {
    token: { ...token, description: `${token.description} Required.` },
    password: { ...password, description: `The new password. ${password.description} Required.` },
  },
} as const;

export const changePasswordBody = {
  type: 'object',
  properties: {
    currentPassword: { ...password, description: 'The password in use now. Required.' },
    newPassword: { ...password, description: `The new password. ${password.description} Required.` },
  },
} as const;

export const changeEmailBody = {
  type: 'object',
  properties: {
    newEmail: { ...email, description: 'The new address; it is mailed a confirmation link. Required.' },
    password: { ...password, description: 'The password in use now. Required.' },
  },
} as const;

export const verifyBody = {
  type: 'object',
  properties: { token: { ...token, description: `${token.description} Required.` } },
} as const;
