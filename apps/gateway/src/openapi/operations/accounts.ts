import { BINDER_COOKIE } from '../../wallet/binder-cookie.js';
import type { OperationDocs } from '../types.js';

const validation = {
  400: '`VALIDATION_ERROR`: a field is missing or malformed; `details` names each one.',
  415: 'The body is not JSON.',
};

/** POST /auth/link/wallet and its poll: cookie session, plus the CSRF header to start. */
const walletFeatureOff = 'Wallet federation is off (or has no usable verifier), or the flow is unknown.';

export const accountOperations: OperationDocs = {
  'POST /auth/register': {
    operationId: 'registerAccount',
    summary: 'Create an account',
    description:
      'Creates an unverified account and sends a verification email. Email syntax and password strength are ' +
      'checked by the identity service: 8 to 128 characters, not a common password, not the local part of the address.',
    tag: 'Accounts',
    responses: { 201: { description: 'The new account.' } },
    errors: {
      ...validation,
      409: '`CONFLICT`: the registration could not be completed (the address is taken).',
    },
  },
  'POST /auth/login': {
    operationId: 'login',
    summary: 'Sign in (first-party)',
    description:
      'Exchanges an email and password for a first-party access token and refresh token, which the developer ' +
      'API and logout accept. Attempts are limited per IP and per account (shared with the hosted sign-in page); an ' +
      'address the account signed in from lately is spared the per-account limit.',
    tag: 'Accounts',
    responses: {
      200: {
        description:
          'Tokens, or for an account with an authenticator app `{ mfa_required, mfa_token, methods }` and no ' +
          'tokens: the second step is POST /auth/login/mfa. `Cache-Control: no-store`.',
      },
    },
    errors: {
      ...validation,
      401: '`INVALID_CREDENTIALS`: wrong email or password (which one is not told).',
      429: 'Too many attempts from this IP or for this account.',
    },
  },
  'POST /auth/logout': {
    operationId: 'logout',
    summary: 'Sign out',
    description:
      'Revokes the presented first-party access token, the refresh tokens of its session and the session itself.',
    tag: 'Accounts',
    security: [{ accessToken: [] }],
    responses: { 200: { description: 'Signed out.' } },
    errors: { 401: '`UNAUTHORIZED`: no token, or one that is invalid, expired or already revoked.' },
  },
  'GET /auth/verify': {
    operationId: 'verifyEmail',
    summary: 'Verify an email address',
    description:
      'Verifies with the token of a verification link. The link itself opens the page `/ui/verify-email`, whose GET ' +
      'changes nothing; its Confirm button uses `POST /auth/verify`.',
    tag: 'Accounts',
    responses: { 200: { description: 'The address is verified.' } },
    errors: {
      400: '`VALIDATION_ERROR` (no token) or `INVALID_TOKEN`: unknown, expired or already used.',
    },
  },
  'POST /auth/resend-verification': {
    operationId: 'resendVerification',
    summary: 'Send the verification email again',
    description:
      'Answers the same for unknown, verified and unverified addresses, so it tells nobody which addresses have ' +
      'accounts. Mails to one address are limited (one a minute, five an hour by default).',
    tag: 'Accounts',
    responses: { 200: { description: 'Accepted, whether a mail goes out or not.' } },
    errors: validation,
  },
  'POST /auth/link/wallet': {
    operationId: 'startWalletLink',
    summary: 'Start linking a wallet credential',
    description:
      'Starts an OpenID for Verifiable Presentations flow that links a wallet credential to the signed-in account. ' +
      `Sets the \`${BINDER_COOKIE}\` cookie, without which the outcome cannot be read.`,
    tag: 'Accounts',
    security: [{ sessionCookie: [], csrfToken: [] }],
    responses: {
      200: {
        description:
          'The flow: show `invocation_uri` (a link or QR code) to the wallet, then poll with `handle`.',
        headers: {
          'Set-Cookie': { type: 'string', description: `The \`${BINDER_COOKIE}\` browser-binding cookie.` },
        },
      },
    },
    errors: {
      400: '`INVALID_CSRF_TOKEN`: X-CSRF-Token missing or not the session token.',
      401: '`UNAUTHORIZED`: no session, or a sign-in older than 5 minutes (sign in again).',
      404: walletFeatureOff,
    },
  },
  'GET /auth/link/wallet/{handle}': {
    operationId: 'pollWalletLink',
    summary: 'Outcome of a wallet link',
    description: `Needs the \`${BINDER_COOKIE}\` cookie and the session of the user who started the flow.`,
    tag: 'Accounts',
    security: [{ sessionCookie: [] }],
    params: {
      type: 'object',
      required: ['handle'],
      properties: { handle: { type: 'string', description: 'The `handle` the start answered.' } },
    },
    responses: {
      200: {
        description:
          'Where the flow stands. `presented`: the wallet answered with a verified credential, shown in ' +
          '`presented`; nothing is linked until the user confirms it. `Cache-Control: no-store`.',
      },
    },
    errors: { 404: `${walletFeatureOff} Also without the binder cookie or the starting user's session.` },
  },
  ...decisionOperation('confirm', 'confirmWalletLink', 'Link the presented wallet credential'),
  ...decisionOperation('cancel', 'cancelWalletLink', 'Refuse the presented wallet credential'),
};

/** The two decisions on a presented link: same cookies as the poll, plus the CSRF header. */
function decisionOperation(
  decision: 'confirm' | 'cancel',
  operationId: string,
  summary: string,
): OperationDocs {
  return {
    [`POST /auth/link/wallet/{handle}/${decision}`]: {
      operationId,
      summary,
      description:
        `Needs the \`${BINDER_COOKIE}\` cookie, the session of the user who started the flow and X-CSRF-Token. ` +
        (decision === 'confirm'
          ? 'Links the credential shown as `presented` (answers `linked` or `conflict`).'
          : 'Links nothing (answers `cancelled`).') +
        ' A flow not awaiting a decision answers its status unchanged.',
      tag: 'Accounts',
      security: [{ sessionCookie: [], csrfToken: [] }],
      params: {
        type: 'object',
        required: ['handle'],
        properties: { handle: { type: 'string', description: 'The `handle` the start answered.' } },
      },
      responses: {
        200: { description: 'Where the flow stands, as the poll answers. `Cache-Control: no-store`.' },
      },
      errors: {
        400: '`INVALID_CSRF_TOKEN`: X-CSRF-Token missing or not the session token.',
        401: '`UNAUTHORIZED`: no session.',
        404: `${walletFeatureOff} Also without the binder cookie or the starting user's session.`,
      },
    },
  };
}
