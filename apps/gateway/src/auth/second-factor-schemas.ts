/**
 * JSON schemas of the second-factor routes (docs/interface.md 4.11). identity checks meaning
 * (a code's shape, a missing password); these check types only, as docs/errors.md asks.
 */

const password = {
  type: 'string',
  maxLength: 1024,
  description: "The account's current password. Required.",
} as const;
const code = {
  type: 'string',
  maxLength: 64,
  description: 'A 6-digit authenticator-app code, or a recovery code. Required.',
} as const;

export const passwordBody = { type: 'object', properties: { password } } as const;
export const codeBody = { type: 'object', properties: { code } } as const;

export const mfaLoginBody = {
  type: 'object',
  properties: {
    mfaToken: {
      type: 'string',
      maxLength: 256,
      description: 'The mfa_token POST /auth/login answered. Required.',
    },
    code,
  },
} as const;

/** POST /auth/login for an account with a second factor: no tokens yet. */
export const mfaRequiredResponse = {
  type: 'object',
  required: ['mfa_required', 'mfa_token', 'methods'],
  additionalProperties: false,
  properties: {
    mfa_required: { type: 'boolean', enum: [true] },
    mfa_token: { type: 'string', description: 'For POST /auth/login/mfa; 5 minutes, single use.' },
    methods: {
      type: 'array',
      items: { type: 'string', enum: ['totp', 'recovery_code'] },
      description: 'The kinds of code POST /auth/login/mfa accepts.',
    },
  },
} as const;

const passkeyView = {
  type: 'object',
  required: ['id', 'name', 'createdAt', 'lastUsedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'integer', description: 'Epoch milliseconds.' },
    lastUsedAt: {
      type: ['integer', 'null'],
      description: 'Epoch milliseconds of the last sign-in; null before one.',
    },
  },
} as const;

export const secondFactorsView = {
  type: 'object',
  required: ['totp', 'recoveryCodesLeft', 'passkeys'],
  additionalProperties: false,
  properties: {
    totp: { type: 'boolean', description: 'Whether an authenticator app is enrolled and confirmed.' },
    recoveryCodesLeft: { type: 'integer', description: 'Unused recovery codes.' },
    passkeys: { type: 'array', items: passkeyView },
  },
} as const;

export const totpEnrolmentView = {
  type: 'object',
  required: ['secret', 'otpauthUri'],
  additionalProperties: false,
  properties: {
    secret: { type: 'string', description: 'The shared secret, RFC 4648 base32, for typing in.' },
    otpauthUri: { type: 'string', description: 'The otpauth://totp/ URI, for a QR code.' },
  },
} as const;

export const recoveryCodesView = {
  type: 'object',
  required: ['recoveryCodes'],
  additionalProperties: false,
  properties: {
    recoveryCodes: {
      type: 'array',
      items: { type: 'string' },
      minItems: 10,
      maxItems: 10,
      description: 'Ten single-use recovery codes, shown only now.',
    },
  },
} as const;

export const noContent = { type: 'null', description: 'No content.' } as const;
