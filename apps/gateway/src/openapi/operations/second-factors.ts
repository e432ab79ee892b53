import type { OperationDocs } from '../types.js';

/** docs/interface.md 4.11: the authenticator app, its recovery codes and the second step of sign-in. */
const bearerOnly = [{ accessToken: [] }];
const unauthorized = '`UNAUTHORIZED`: no token, or one that is not a live first-party user token.';
const passwordErrors = {
  400: '`VALIDATION_ERROR`: no password, or not a string.',
  401: '`UNAUTHORIZED` (no live token) or `INVALID_CREDENTIALS` (wrong password).',
  415: 'The body is not JSON.',
};

export const secondFactorOperations: OperationDocs = {
  'GET /auth/mfa': {
    operationId: 'getSecondFactors',
    summary: "The account's second factors",
    description: 'Whether an authenticator app is on, how many recovery codes are unused, and the passkeys.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The factors.' } },
    errors: { 401: unauthorized },
  },
  'POST /auth/mfa/totp': {
    operationId: 'beginTotpEnrolment',
    summary: 'Start adding an authenticator app',
    description:
      'After the password, a new TOTP secret (SHA-1, 6 digits, 30 s) as base32 and as an `otpauth://totp/` URI ' +
      'for a QR code. It stays pending until POST /auth/mfa/totp/confirm; a new call replaces a pending one.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The secret and its URI.' } },
    errors: { ...passwordErrors, 409: '`CONFLICT`: an authenticator app is already on; remove it first.' },
  },
  'POST /auth/mfa/totp/confirm': {
    operationId: 'confirmTotpEnrolment',
    summary: 'Turn the authenticator app on',
    description:
      'One current code confirms the pending secret. Answers ten single-use recovery codes, shown only now; a ' +
      'notice mail goes to the account.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The recovery codes.' } },
    errors: {
      400: '`VALIDATION_ERROR` (no code) or `INVALID_CODE` (a wrong code, or nothing pending).',
      401: unauthorized,
      415: 'The body is not JSON.',
    },
  },
  'DELETE /auth/mfa/totp': {
    operationId: 'removeTotp',
    summary: 'Remove the authenticator app',
    description:
      'After the password, the authenticator app and its recovery codes are removed; a notice mail follows.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 204: { description: 'Removed (or there was none).' } },
    errors: passwordErrors,
  },
  'POST /auth/login/mfa': {
    operationId: 'completeLogin',
    summary: 'Sign in: the second step',
    description:
      'The `mfa_token` POST /auth/login answered (5 minutes, single use) and a code of the authenticator app or a ' +
      'recovery code, each accepted once. Answers what POST /auth/login answers for an account without a second ' +
      'factor.',
    tag: 'Accounts',
    responses: { 200: { description: 'Tokens. `Cache-Control: no-store`.' } },
    errors: {
      400:
        '`VALIDATION_ERROR` (no code), `INVALID_TOKEN` (unknown, expired or used mfaToken) or `INVALID_CODE` ' +
        '(wrong, replayed or used code).',
      415: 'The body is not JSON.',
      429: 'Too many failed second steps for this account, or attempts from this IP.',
    },
  },
};
