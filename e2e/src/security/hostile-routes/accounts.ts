import fc from 'fast-check';
import { PASSWORD } from '../../support/code-flow.js';
import type { Pairs } from '../hostile-bodies.js';
import type { RouteSpec } from '../hostile-requests.js';
import { field, segment } from '../hostile-strings.js';
import type { HostileFixtures } from '../hostile-suite.js';
import { base64url43, bearer, hex64, path, runs, session } from '../hostile-arbitraries.js';

/**
 * interface.md 4.10 account API. The fixture user must survive: DELETE /auth/account is only ever
 * sent wrong passwords, and DELETE /auth/sessions/{id} ids that are none of its live sessions.
 */
export function accountRoutes(world: HostileFixtures): RouteSpec[] {
  const credentials = bearer(world.developerToken, world.accessToken, world.refreshToken, world.idToken);
  const notASession = segment('00000000-0000-4000-8000-000000000000', world.consentId, world.webApp.id);
  return [
    {
      name: 'GET /auth/sessions',
      methods: ['GET'],
      path: path('/auth/sessions'),
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'DELETE /auth/sessions/{id}',
      methods: ['DELETE'],
      path: notASession.map((id) => `/auth/sessions/${id}`),
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'DELETE /auth/account',
      methods: ['DELETE'],
      path: path('/auth/account'),
      body: {
        type: 'json',
        fields: { password: field('wrong-Password-1234', '', 'password1') },
        valid: fc.constant({ password: 'wrong-Password-1234' }),
      },
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'GET and PATCH /auth/me',
      methods: ['GET', 'PATCH'],
      path: path('/auth/me'),
      body: {
        type: 'json',
        fields: { name: field('Ada Lovelace', '', 'n'.repeat(256)) },
        valid: fc.constant({ name: 'Ada Lovelace' }),
      },
      headers: credentials,
      numRuns: runs(2000),
    },
  ];
}

/**
 * interface.md 4.10 pages. As above, the fixture session and account must survive: sign-out and
 * ending a session get CSRF tokens that are never the session's, deletion wrong passwords.
 */
export function accountPageRoutes(world: HostileFixtures): RouteSpec[] {
  const withSession = session(world, false);
  const handle = field(base64url43());
  const wrongPassword = field('wrong-Password-1234', '');
  return [
    {
      name: 'GET and POST /ui/register',
      methods: ['GET', 'POST'],
      path: path('/ui/register'),
      query: { handle },
      body: {
        type: 'form',
        fields: {
          email: field(world.user.email),
          password: field(PASSWORD),
          csrf_token: field(hex64()),
          handle,
        },
        valid: fc.constant<Pairs>([
          ['csrf_token', hex64()],
          ['email', world.user.email],
          ['password', PASSWORD],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET /ui/account',
      methods: ['GET'],
      path: path('/ui/account'),
      query: { done: field('name', 'session-ended') },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'POST /ui/account/name',
      methods: ['POST'],
      path: path('/ui/account/name'),
      body: {
        type: 'form',
        fields: { csrf_token: field(world.csrfToken), name: field('Ada Lovelace', 'n'.repeat(256)) },
        valid: fc.constant<Pairs>([
          ['csrf_token', world.csrfToken],
          ['name', 'Ada Lovelace'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'POST /ui/account/sessions/end and sign-out',
      methods: ['POST'],
      path: fc.constantFrom('/ui/account/sessions/end', '/ui/account/sign-out'),
      body: {
        type: 'form',
        fields: { csrf_token: field(hex64()), session_id: field('00000000-0000-4000-8000-000000000000') },
        valid: fc.constant<Pairs>([
          ['csrf_token', hex64()],
          ['session_id', '00000000-0000-4000-8000-000000000000'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'POST /ui/account/delete',
      methods: ['POST'],
      path: path('/ui/account/delete'),
      body: {
        type: 'form',
        fields: { csrf_token: field(world.csrfToken), password: wrongPassword },
        valid: fc.constant<Pairs>([
          ['csrf_token', world.csrfToken],
          ['password', 'wrong-Password-1234'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
  ];
}
