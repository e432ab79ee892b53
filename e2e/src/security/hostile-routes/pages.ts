import fc from 'fast-check';
import { PASSWORD } from '../../support/code-flow.js';
import type { Pairs } from '../hostile-bodies.js';
import type { RouteSpec } from '../hostile-requests.js';
import { field, segment } from '../hostile-strings.js';
import type { HostileFixtures } from '../hostile-suite.js';
import { base64url43, hex64, path, runs, session } from '../hostile-arbitraries.js';

export function pageRoutes(world: HostileFixtures): RouteSpec[] {
  const handle = field(base64url43());
  const withSession = session(world, false);
  return [
    {
      name: 'GET /ui/login',
      methods: ['GET'],
      path: path('/ui/login'),
      query: { handle },
      validQuery: fc.constant<Pairs>([['handle', base64url43()]]),
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'POST /ui/login',
      methods: ['POST'],
      path: path('/ui/login'),
      body: {
        type: 'form',
        fields: {
          email: field(world.user.email),
          password: field(PASSWORD),
          csrf_token: field(hex64()),
          handle,
        },
        valid: fc.constant<Pairs>([
          ['handle', base64url43()],
          ['csrf_token', hex64()],
          ['email', world.user.email],
          ['password', PASSWORD],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /ui/consent',
      methods: ['GET', 'POST'],
      path: path('/ui/consent'),
      query: { handle },
      body: {
        type: 'form',
        fields: { handle, csrf_token: field(world.csrfToken), decision: field('allow', 'deny') },
        valid: fc.constant<Pairs>([
          ['handle', base64url43()],
          ['csrf_token', world.csrfToken],
          ['decision', 'allow'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /ui/logout',
      methods: ['GET', 'POST'],
      path: path('/ui/logout'),
      query: { handle },
      body: {
        type: 'form',
        fields: { handle, csrf_token: field(world.csrfToken) },
        valid: fc.constant<Pairs>([
          ['handle', base64url43()],
          ['csrf_token', world.csrfToken],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET /ui/signed-out',
      methods: ['GET'],
      path: path('/ui/signed-out'),
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET /ui/resume/{handle}',
      methods: ['GET'],
      path: segment(base64url43()).map((value) => `/ui/resume/${value}`),
      headers: withSession,
      numRuns: runs(2000),
    },
    // interface.md 4.10. As at /auth/change-password, the current password is never the
    // fixture user's.
    {
      name: 'GET and POST /ui/forgot-password',
      methods: ['GET', 'POST'],
      path: path('/ui/forgot-password'),
      body: {
        type: 'form',
        fields: { email: field(world.user.email), csrf_token: field(hex64()) },
        valid: fc.constant<Pairs>([
          ['csrf_token', hex64()],
          ['email', world.user.email],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    ...['/ui/reset-password', '/ui/verify-email'].map((url): RouteSpec => ({
      name: `GET and POST ${url}`,
      methods: ['GET', 'POST'],
      path: path(url),
      query: { token: field(hex64()) },
      validQuery: fc.constant<Pairs>([['token', hex64()]]),
      body: {
        type: 'form',
        fields: { token: field(hex64()), csrf_token: field(hex64()), password: field(PASSWORD, 'short') },
        valid: fc.constant<Pairs>([
          ['token', hex64()],
          ['csrf_token', hex64()],
          ['password', PASSWORD],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    })),
    {
      name: 'GET and POST /ui/account/password',
      methods: ['GET', 'POST'],
      path: path('/ui/account/password'),
      body: {
        type: 'form',
        fields: {
          csrf_token: field(world.csrfToken),
          current_password: field('wrong-Password-1234'),
          new_password: field('Another-Password-5678', 'short'),
        },
        valid: fc.constant<Pairs>([
          ['csrf_token', world.csrfToken],
          ['current_password', 'wrong-Password-1234'],
          ['new_password', 'Another-Password-5678'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /ui/account/email',
      methods: ['GET', 'POST'],
      path: path('/ui/account/email'),
      body: {
        type: 'form',
        fields: {
          csrf_token: field(world.csrfToken),
          new_email: field(world.user.email),
          password: field('wrong-Password-1234'),
        },
        valid: fc.constant<Pairs>([
          ['csrf_token', world.csrfToken],
          ['new_email', 'someone-new@example.com'],
          ['password', 'wrong-Password-1234'],
        ]),
      },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'GET /ui/assets/* and other /ui/ paths',
      methods: ['GET', 'POST'],
      path: segment('assets/style.css', 'assets/missing.css', 'nowhere', 'wallet-login').map(
        (rest) => `/ui/${rest}`,
      ),
      query: { v: field('1') },
      headers: withSession,
      numRuns: runs(2000),
    },
    // interface.md 4.13: the device authorization grant's pages.
    {
      name: 'GET and POST /ui/device',
      methods: ['GET', 'POST'],
      path: path('/ui/device'),
      query: { user_code: field('BCDF-GHJK', 'bcdfghjk', 'AAAA-AAAA') },
      body: {
        type: 'form',
        fields: { user_code: field('BCDF-GHJK', 'bcdfghjk'), csrf_token: field(hex64()) },
        valid: fc.constant<Pairs>([
          ['user_code', 'BCDF-GHJK'],
          ['csrf_token', hex64()],
        ]),
      },
      headers: withSession,
      numRuns: runs(1000),
    },
    {
      name: 'GET and POST /ui/device/consent',
      methods: ['GET', 'POST'],
      path: path('/ui/device/consent'),
      query: { handle },
      body: {
        type: 'form',
        fields: { handle, csrf_token: field(world.csrfToken), decision: field('allow', 'deny') },
        valid: fc.constant<Pairs>([
          ['handle', base64url43()],
          ['csrf_token', world.csrfToken],
          ['decision', 'deny'],
        ]),
      },
      headers: withSession,
      numRuns: runs(1000),
    },
  ];
}
