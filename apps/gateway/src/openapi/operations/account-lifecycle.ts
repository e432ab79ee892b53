import type { OperationDocs } from '../types.js';

/** interface.md 4.10 account routes: a live first-party user token on every one. */
const bearerOnly = [{ accessToken: [] }];
const unauthorized = '`UNAUTHORIZED`: no token, or one that is not a live first-party user token.';

export const accountLifecycleOperations: OperationDocs = {
  'GET /auth/sessions': {
    operationId: 'listSessions',
    summary: "List the user's sessions",
    description:
      'Every live session of the user: first-party sign-ins (`/auth/login`) and browser sessions of the hosted ' +
      'pages (password or wallet sign-in). `current` marks the session of the calling token. `lastSeenAt` is ' +
      'written at most every few minutes, so it may lag.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The sessions, oldest first.' } },
    errors: { 401: unauthorized },
  },
  'DELETE /auth/sessions/{id}': {
    operationId: 'endAccountSession',
    summary: 'Sign a session out',
    description:
      "Ends one of the user's sessions: its refresh tokens are revoked and the access tokens issued in it " +
      'denied, as at logout.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 204: { description: 'The session has ended.' } },
    errors: {
      401: unauthorized,
      404: '`NOT_FOUND`: no live session of this user has that id.',
    },
  },
  'DELETE /auth/account': {
    operationId: 'deleteAccount',
    summary: 'Delete the account',
    description:
      'Deletes the account after checking its password: its sessions, consents, refresh tokens, OAuth clients ' +
      'and API keys go with it, and its live access tokens are denied. Password attempts are limited per IP and ' +
      'per account.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 204: { description: 'The account is deleted.' } },
    errors: {
      400: '`VALIDATION_ERROR`: no password, or not a string.',
      401: '`UNAUTHORIZED` (no live token) or `INVALID_CREDENTIALS` (wrong password).',
      415: 'The body is not JSON.',
    },
  },
  'GET /auth/me': {
    operationId: 'getMe',
    summary: 'The signed-in user',
    description: 'The user of the token, with the name they set (null until set).',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The user.' } },
    errors: { 401: unauthorized },
  },
  'PATCH /auth/me': {
    operationId: 'updateMe',
    summary: "Set or clear the user's name",
    description:
      'The name becomes the `name` claim of ID tokens and, under the `profile` scope, of UserInfo. It is ' +
      'trimmed and must be 1 to 255 characters; null removes it.',
    tag: 'Accounts',
    security: bearerOnly,
    responses: { 200: { description: 'The user, `updatedAt` set.' } },
    errors: {
      400: '`VALIDATION_ERROR`: no name, or one that is not 1 to 255 characters.',
      401: unauthorized,
      415: 'The body is not JSON.',
    },
  },
};
