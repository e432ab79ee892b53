import type { OperationDocs } from '../types.js';
import { formOnly } from './oauth.js';

/** OpenID Connect Core section 5.3 (interface.md 4.3). */
const userInfo = {
  summary: 'UserInfo',
  tag: 'OAuth',
  responses: {
    200: {
      description:
        "The user's claims (OpenID Connect Core section 5.3): `sub` always, `email` and `email_verified` with the " +
        '`email` scope. `Cache-Control: no-store`.',
    },
  },
} as const;

const userInfoErrors = {
  400: '`invalid_request`: the token was sent more than once.',
  401: '`invalid_token`: a bad, expired or revoked token; or no token at all (then the ApiError envelope, no `error` in the challenge).',
  403: '`insufficient_scope`: the token lacks `openid`.',
};

export const userInfoOperations: OperationDocs = {
  'GET /oauth/userinfo': {
    ...userInfo,
    operationId: 'userInfo',
    description:
      'The token in `Authorization: Bearer`, or for a DPoP-bound token `Authorization: DPoP` with a `DPoP` proof ' +
      'carrying `ath` (RFC 9449 section 7); the query parameter of RFC 6750 section 2.3 is not offered.',
    security: [{ accessToken: [] }],
    errors: userInfoErrors,
  },
  'POST /oauth/userinfo': {
    ...userInfo,
    operationId: 'userInfoPost',
    description: 'The token in `Authorization: Bearer` or in the form field `access_token`, never both.',
    security: [{ accessToken: [] }, {}],
    body: {
      'application/x-www-form-urlencoded': {
        type: 'object',
        properties: {
          access_token: {
            type: 'string',
            description:
              'The access token (RFC 6750 section 2.2), when not sent in the Authorization header.',
          },
        },
      },
    },
    errors: { ...userInfoErrors, ...formOnly },
  },
};
