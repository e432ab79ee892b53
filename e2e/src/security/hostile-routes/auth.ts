import fc from 'fast-check';
import { PASSWORD } from '../../support/code-flow.js';
import type { Pairs } from '../hostile-bodies.js';
import type { RouteSpec } from '../hostile-requests.js';
import { field, segment } from '../hostile-strings.js';
import type { HostileFixtures } from '../hostile-suite.js';
import { bearer, hex64, path, runs, session } from '../hostile-arbitraries.js';

/** The routes every deployment answers the same: the root, health, metrics, discovery, unknown paths. */
export function systemRoutes(): RouteSpec[] {
  return [
    { name: 'GET /', methods: ['GET'], path: fc.constant('/'), numRuns: runs(1000) },
    { name: 'GET /health', methods: ['GET'], path: path('/health'), numRuns: runs(1000) },
    { name: 'GET /metrics', methods: ['GET'], path: path('/metrics'), numRuns: runs(1000) },
    ...[
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/.well-known/jwks.json',
      '/.well-known/oauth-protected-resource',
    ].map((url): RouteSpec => ({
      name: `GET ${url}`,
      methods: ['GET', 'OPTIONS'],
      path: path(url),
      numRuns: runs(2000),
    })),
    {
      name: 'unknown paths',
      methods: ['GET', 'POST'],
      path: fc
        .tuple(segment('oauth', 'auth', 'api', 'ui', '.well-known', 'oid4vp'), segment('x'))
        .map(([first, second]) => `/${first}/${second}`),
      numRuns: runs(2000),
    },
  ];
}

export function authRoutes(world: HostileFixtures): RouteSpec[] {
  const email = field(world.user.email, world.user.email.toUpperCase(), fc.emailAddress());
  const password = field(PASSWORD, 'password1', 'short', 'Ünïcödé-pässwörd-42');
  return [
    {
      name: 'POST /auth/register',
      methods: ['POST'],
      path: path('/auth/register'),
      body: {
        type: 'json',
        fields: { email, password, realmId: field('00000000-0000-0000-0000-000000000000') },
        valid: fc.emailAddress().map((address) => ({ email: address, password: PASSWORD })),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/login',
      methods: ['POST'],
      path: path('/auth/login'),
      body: {
        type: 'json',
        fields: { email, password },
        valid: fc.constant({ email: world.user.email, password: PASSWORD }),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/logout',
      methods: ['POST'],
      path: path('/auth/logout'),
      headers: bearer(...world.logoutTokens, world.accessToken, world.refreshToken),
      numRuns: runs(2000),
    },
    {
      name: 'GET /auth/verify',
      methods: ['GET'],
      path: path('/auth/verify'),
      query: { token: field(hex64(), hex64().toUpperCase()) },
      validQuery: fc.constant<Pairs>([['token', hex64()]]),
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/resend-verification',
      methods: ['POST'],
      path: path('/auth/resend-verification'),
      body: { type: 'json', fields: { email }, valid: fc.constant({ email: world.user.email }) },
      numRuns: runs(2000),
    },
    // interface.md 4.10. The current password is never the fixture user's: a generated
    // request must not change it under the rest of the suite.
    {
      name: 'POST /auth/forgot-password',
      methods: ['POST'],
      path: path('/auth/forgot-password'),
      body: { type: 'json', fields: { email }, valid: fc.constant({ email: world.user.email }) },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/reset-password',
      methods: ['POST'],
      path: path('/auth/reset-password'),
      body: {
        type: 'json',
        fields: { token: field(hex64(), hex64().toUpperCase()), password },
        valid: fc.constant({ token: hex64(), password: PASSWORD }),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/change-password',
      methods: ['POST'],
      path: path('/auth/change-password'),
      headers: bearer(world.accessToken, world.refreshToken),
      body: {
        type: 'json',
        fields: { currentPassword: field('wrong-Password-1234', 'short'), newPassword: password },
        valid: fc.constant({ currentPassword: 'wrong-Password-1234', newPassword: 'Another-Password-5678' }),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/change-email',
      methods: ['POST'],
      path: path('/auth/change-email'),
      headers: bearer(world.accessToken, world.refreshToken),
      body: {
        type: 'json',
        fields: { newEmail: email, password: field('wrong-Password-1234', 'short') },
        valid: fc.emailAddress().map((address) => ({ newEmail: address, password: 'wrong-Password-1234' })),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/verify',
      methods: ['POST'],
      path: path('/auth/verify'),
      body: {
        type: 'json',
        fields: { token: field(hex64(), hex64().toUpperCase()) },
        valid: fc.constant({ token: hex64() }),
      },
      numRuns: runs(2000),
    },
    {
      name: '/auth/link/wallet (flag off)',
      methods: ['POST', 'GET'],
      path: fc.constantFrom('/auth/link/wallet', '/auth/link/wallet/abc'),
      headers: session(world, true),
      numRuns: runs(2000),
    },
  ];
}
