import type { OperationDocs } from '../types.js';

// interface.md 4.10: password reset, password and email change, verification by POST.

const validation = {
  400: '`VALIDATION_ERROR`: a field is missing or malformed; `details` names each one.',
  415: 'The body is not JSON.',
};
const bearer = '`UNAUTHORIZED`: no token, or one that is invalid, expired or revoked.';

export const accountRecoveryOperations: OperationDocs = {
  'POST /auth/forgot-password': {
    operationId: 'forgotPassword',
    summary: 'Send a password reset email',
    description:
      'Mails a link to `/ui/reset-password?token=…` when the address belongs to an account; answers the same for ' +
      'every syntactically valid address and mails nothing to an unknown one. A newer link replaces older ones. ' +
      'Requests per address are limited like verification mails (one a minute, five an hour by default), for ' +
      'known and unknown addresses alike, and per IP.',
    tag: 'Accounts',
    responses: { 200: { description: 'Accepted, whether a mail goes out or not.' } },
    errors: validation,
  },
  'POST /auth/reset-password': {
    operationId: 'resetPassword',
    summary: 'Set a new password with a reset token',
    description:
      'Uses the token of a reset link once: sets the password, marks the address verified, ends every session, ' +
      'revokes every refresh token and denies every access token of the account, and mails a notice.',
    tag: 'Accounts',
    responses: { 200: { description: 'The password is reset.' } },
    errors: {
      400:
        '`VALIDATION_ERROR` (a malformed token, a weak password) or `INVALID_TOKEN`: unknown, expired, used or ' +
        'replaced by a newer one.',
      415: validation[415],
    },
  },
  'POST /auth/change-password': {
    operationId: 'changePassword',
    summary: 'Change the password',
    description:
      'Checks the current password and sets the new one. Every other session ends with its refresh and access ' +
      'tokens; the calling session and its tokens stay valid. A notice is mailed.',
    tag: 'Accounts',
    security: [{ accessToken: [] }],
    responses: { 200: { description: 'The password is changed.' } },
    errors: {
      ...validation,
      401: `${bearer} \`INVALID_CREDENTIALS\`: the current password is wrong.`,
    },
  },
  'POST /auth/change-email': {
    operationId: 'changeEmail',
    summary: 'Change the email address',
    description:
      'Checks the password and mails a confirmation link (`/ui/verify-email?token=…`) to the new address. The ' +
      'address changes only when that link is confirmed; the old address is then told.',
    tag: 'Accounts',
    security: [{ accessToken: [] }],
    responses: { 202: { description: 'The confirmation link is on its way.' } },
    errors: {
      ...validation,
      401: `${bearer} \`INVALID_CREDENTIALS\`: the password is wrong.`,
      409: '`CONFLICT`: the address cannot be used (it is taken).',
    },
  },
  'POST /auth/verify': {
    operationId: 'confirmEmail',
    summary: 'Verify an email address (confirm button)',
    description:
      'The same effect as `GET /auth/verify`, for the Confirm button of `/ui/verify-email`: verifies a new ' +
      "account's address, or completes an email change.",
    tag: 'Accounts',
    responses: { 200: { description: 'The address is verified.' } },
    errors: {
      400: '`VALIDATION_ERROR` (a malformed token) or `INVALID_TOKEN`: unknown, expired or already used.',
      409: '`CONFLICT`: an email change whose new address was taken meanwhile.',
      415: validation[415],
    },
  },
};
