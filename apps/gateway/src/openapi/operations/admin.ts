import type { OperationDocs } from '../types.js';

/** interface.md 4.15: a first-party user token of an admin on every operator route. */
const bearerOnly = [{ accessToken: [] }];
const unauthorized = '`UNAUTHORIZED`: no token, or one that is not a live first-party user token.';
const forbidden = "`FORBIDDEN`: the token's user does not hold the admin role (checked on every call).";
const badUserId = '`VALIDATION_ERROR`: the id is not a user id.';
const unknownUser = '`NOT_FOUND`: no account has that id (or its deletion has begun).';
const badPage = '`VALIDATION_ERROR`: a malformed cursor or query value, or `limit` outside 1 to 100.';

const admin = (operationId: string, summary: string, description: string) =>
  ({ operationId, summary, description, tag: 'Admin', security: bearerOnly }) as const;

export const adminOperations: OperationDocs = {
  'GET /admin/users': {
    ...admin(
      'adminListUsers',
      'List accounts',
      'Accounts oldest first, in pages of `limit` (default 50, at most 100). `query` matches part of the address ' +
        'or the name, case-insensitively, or an exact user id. Pages follow `nextCursor`; accounts created ' +
        'meanwhile appear on later pages, never twice.',
    ),
    responses: { 200: { description: 'One page of accounts.' } },
    errors: { 400: badPage, 401: unauthorized, 403: forbidden },
  },
  'GET /admin/users/{id}': {
    ...admin(
      'adminGetUser',
      'Get an account',
      'One account, with whether it is disabled and holds the admin role.',
    ),
    responses: { 200: { description: 'The account.' } },
    errors: { 400: badUserId, 401: unauthorized, 403: forbidden, 404: unknownUser },
  },
  'PATCH /admin/users/{id}': {
    ...admin(
      'adminUpdateUser',
      'Disable, enable or mark an account verified',
      '`disabled: true` refuses every sign-in of the account (as wrong credentials), ends its sessions (with ' +
        'back-channel logout to the clients), revokes its refresh tokens and denies its live access tokens. ' +
        '`disabled: false` allows sign-in again; the ended tokens stay ended. An admin cannot disable their ' +
        'own account.',
    ),
    responses: { 200: { description: 'The account after the change.' } },
    errors: {
      400: '`VALIDATION_ERROR`: a malformed id, an empty body, an unknown field or a value that is not a boolean.',
      401: unauthorized,
      403: forbidden,
      404: unknownUser,
      409: '`CONFLICT`: the admin tried to disable their own account.',
      415: 'The body is not JSON.',
    },
  },
  'DELETE /admin/users/{id}': {
    ...admin(
      'adminDeleteUser',
      'Delete an account',
      'Deletes the account as `DELETE /auth/account` does, without its password: sessions, consents, refresh ' +
        'tokens, OAuth clients and API keys go with it, and its live access tokens are denied.',
    ),
    responses: { 204: { description: 'The account is deleted.' } },
    errors: {
      400: badUserId,
      401: unauthorized,
      403: forbidden,
      404: unknownUser,
      409: '`CONFLICT`: the admin tried to delete their own account.',
    },
  },
  'POST /admin/users/{id}/sessions/revoke': {
    ...admin(
      'adminRevokeUserSessions',
      'End every session of an account',
      'Ends every live session (clients with a back-channel logout URI are told), revokes the refresh tokens and ' +
        'denies the live access tokens. The account can sign in again.',
    ),
    responses: { 200: { description: 'How many sessions ended.' } },
    errors: { 400: badUserId, 401: unauthorized, 403: forbidden, 404: unknownUser },
  },
  'POST /admin/users/{id}/password-reset': {
    ...admin(
      'adminSendPasswordReset',
      'Send a password-reset email',
      "Mails the account's address the same reset link as `POST /auth/forgot-password`; older links stop working.",
    ),
    responses: { 202: { description: 'The mail is queued.' } },
    errors: { 400: badUserId, 401: unauthorized, 403: forbidden, 404: unknownUser },
  },
  'GET /admin/clients': {
    ...admin(
      'adminListClients',
      'List clients of every developer',
      "Clients oldest first in pages of `limit` (default 50, at most 100); only one developer's with `developerId`.",
    ),
    responses: { 200: { description: 'One page of clients.' } },
    errors: { 400: badPage, 401: unauthorized, 403: forbidden },
  },
  'PATCH /admin/clients/{id}': {
    ...admin(
      'adminUpdateClient',
      'Enable, disable or move a client',
      'The id is the record id or the OAuth client id. `enabled: false` makes the client authenticate nowhere. ' +
        '`environment` (development, staging, production, unset) follows the rules of the set-environment ' +
        "command: leaving development revokes the client's API keys.",
    ),
    responses: { 200: { description: 'The client after the change.' } },
    errors: {
      400: '`VALIDATION_ERROR`: a malformed id, an empty body, an unknown field or an unknown environment.',
      401: unauthorized,
      403: forbidden,
      404: '`NOT_FOUND`: no client has that id.',
      415: 'The body is not JSON.',
    },
  },
  'GET /admin/audit-events': {
    ...admin(
      'adminListAuditEvents',
      'Read the audit log',
      'Security events newest first in pages of `limit` (default 50, at most 100). `userId` keeps the events the ' +
        'user did and those an admin did to them; `type` one type; `since` (epoch milliseconds) events at or after ' +
        'it. Every admin action is an event naming the admin.',
    ),
    responses: { 200: { description: 'One page of events.' } },
    errors: { 400: badPage, 401: unauthorized, 403: forbidden },
  },
  'GET /admin/signing-keys': {
    ...admin(
      'adminListSigningKeys',
      'List the signing keys',
      'Every published key, newest first, with its state.',
    ),
    responses: { 200: { description: 'The keys.' } },
    errors: { 401: unauthorized, 403: forbidden },
  },
  'POST /admin/signing-keys/rotate': {
    ...admin(
      'adminRotateSigningKeys',
      'Rotate the signing keys',
      'Two-phase rotation of every algorithm: the new keys are published at once and sign from `activatesAt`; the ' +
        'outgoing keys sign until then and stay published until the tokens they signed have expired.',
    ),
    responses: { 200: { description: 'The new keys.' } },
    errors: { 401: unauthorized, 403: forbidden },
  },
};
