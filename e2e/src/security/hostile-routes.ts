import fc from 'fast-check';
import { PASSWORD, REDIRECT_URI } from '../support/code-flow.js';
import type { Fields, Pairs } from './hostile-bodies.js';
import type { RouteSpec } from './hostile-requests.js';
import { field, segment } from './hostile-strings.js';
import type { HostileFixtures } from './hostile-suite.js';

import {
  authorizationFields,
  base64url43,
  bearer,
  clientAuthentication,
  hex64,
  path,
  runs,
  session,
  tokenFields,
  tokenManagementFields,
  validAuthorization,
  validTokenManagement,
  validTokenRequest,
} from './hostile-arbitraries.js';

/**
 * Every public route of interface.md 4 with the fields it reads and the credentials worth
 * sending, so that generated requests get past the router and the parsers into each route's
 * own checks and, with real credentials, into the services. `numRuns` is per run of the suite:
 * 2,000 for a route, 3,000 for the authorization and token endpoints, 1,000 for the three
 * whose answer depends on nothing a request carries (/, /health, /metrics);
 * HOSTILE_INPUT_RUNS_SCALE multiplies them all (docs/security.md "Hostile input").
 */
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

export function oauthRoutes(world: HostileFixtures): RouteSpec[] {
  const authorization = authorizationFields(world);
  const management = tokenManagementFields(world);
  const withSession = session(world, false);
  return [
    {
      name: 'GET /oauth/authorize',
      methods: ['GET'],
      path: path('/oauth/authorize'),
      query: authorization,
      validQuery: validAuthorization(world),
      headers: withSession,
      numRuns: runs(3000),
    },
    {
      name: 'POST /oauth/authorize',
      methods: ['POST'],
      path: path('/oauth/authorize'),
      body: { type: 'form', fields: authorization, valid: validAuthorization(world) },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      name: 'POST /oauth/token',
      methods: ['POST', 'OPTIONS'],
      path: path('/oauth/token'),
      body: { type: 'form', fields: tokenFields(world), valid: validTokenRequest(world) },
      headers: clientAuthentication(world),
      numRuns: runs(3000),
    },
    {
      name: 'POST /oauth/introspect',
      methods: ['POST'],
      path: path('/oauth/introspect'),
      body: { type: 'form', fields: management, valid: validTokenManagement(world) },
      headers: clientAuthentication(world),
      numRuns: runs(2000),
    },
    {
      name: 'POST /oauth/revoke',
      methods: ['POST', 'OPTIONS'],
      path: path('/oauth/revoke'),
      body: { type: 'form', fields: management, valid: validTokenManagement(world) },
      headers: clientAuthentication(world),
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /oauth/userinfo',
      methods: ['GET', 'POST', 'OPTIONS'],
      path: path('/oauth/userinfo'),
      body: {
        type: 'form',
        fields: { access_token: field(world.accessToken, world.idToken) },
        valid: fc.constant<Pairs>([['access_token', world.accessToken]]),
      },
      headers: bearer(world.accessToken, world.idToken, world.developerToken),
      numRuns: runs(2000),
    },
    {
      name: 'POST /oauth/register',
      methods: ['POST'],
      path: path('/oauth/register'),
      body: {
        type: 'json',
        fields: {
          redirect_uris: field(REDIRECT_URI, 'http://127.0.0.1:8080/cb', 'https://app.example/cb#f'),
          token_endpoint_auth_method: field(
            'none',
            'client_secret_basic',
            'client_secret_post',
            'private_key_jwt',
          ),
          grant_types: field('authorization_code', 'refresh_token', 'client_credentials'),
          response_types: field('code', 'token'),
          client_name: field('Hostile app'),
          scope: field('openid email', 'admin'),
          jwks: field('{"keys":[]}'),
          jwks_uri: field('https://keys.invalid/jwks.json', 'http://127.0.0.1:1/jwks.json'),
          is_agent: field('true'),
        },
        valid: fc.constant({
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          client_name: 'Hostile app',
          scope: 'openid email',
        }),
      },
      numRuns: runs(2000),
    },
    {
      // interface.md 4.3. Never a valid id_token_hint: ending the fixture's session would change
      // what the routes checked after this one answer.
      name: 'GET and POST /oauth/logout',
      methods: ['GET', 'POST'],
      path: path('/oauth/logout'),
      query: logoutFields(world),
      validQuery: validLogout(world),
      body: { type: 'form', fields: logoutFields(world), valid: validLogout(world) },
      headers: withSession,
      numRuns: runs(2000),
    },
    {
      // interface.md 4.13 (RFC 8628 section 3.1).
      name: 'POST /oauth/device_authorization',
      methods: ['POST'],
      path: path('/oauth/device_authorization'),
      body: {
        type: 'form',
        fields: {
          client_id: field(world.publicApp.clientId, world.webApp.clientId, 'authz-first-party'),
          scope: field('openid email', 'admin', 'openid "x"'),
        },
        valid: fc.constant<Pairs>([
          ['client_id', world.publicApp.clientId],
          ['scope', 'openid'],
        ]),
      },
      headers: clientAuthentication(world),
      numRuns: runs(1000),
    },
  ];
}

export function developerRoutes(world: HostileFixtures): RouteSpec[] {
  const { webApp, victim, machine, publicApp } = world;
  const credentials = bearer(world.developerToken, world.accessToken, world.refreshToken);
  const validSettings = fc.constant({
    name: 'Hostile app',
    redirectUris: [REDIRECT_URI],
    scopes: ['openid'],
    tokenEndpointAuthMethod: 'none',
  });
  const settings: Fields = {
    name: field('Hostile app', 'a'.repeat(256)),
    description: field(),
    redirectUris: field(REDIRECT_URI, 'http://127.0.0.1/cb', 'http://example.com/cb', 'https://a.example/#f'),
    scopes: field('openid', 'email', 'admin'),
    grantTypes: field('authorization_code', 'refresh_token', 'client_credentials', 'password'),
    responseTypes: field('code', 'token'),
    tokenEndpointAuthMethod: field('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'),
    jwks: field('{"keys":[]}'),
    jwksUri: field('https://keys.invalid/jwks.json', 'http://127.0.0.1/jwks.json'),
    enabled: field('false'),
    clientId: field(webApp.clientId),
    clientSecret: field(),
    developerId: field(),
  };
  // Only the victim may be changed or removed: the other clients carry the rest of the fixtures.
  const anyId = segment(webApp.id, webApp.clientId, victim.id, victim.clientId, machine.id, publicApp.id);
  const victimId = segment(victim.id, victim.clientId, publicApp.id);
  return [
    {
      name: 'GET and POST /api/clients/',
      methods: ['GET', 'POST'],
      path: fc.constantFrom('/api/clients', '/api/clients/', '/api/clients//'),
      body: { type: 'json', fields: settings, valid: validSettings },
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'GET /api/clients/{id}',
      methods: ['GET'],
      path: anyId.map((id) => `/api/clients/${id}`),
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'PATCH and DELETE /api/clients/{id}',
      methods: ['PATCH', 'DELETE'],
      path: victimId.map((id) => `/api/clients/${id}`),
      body: { type: 'json', fields: settings, valid: validSettings },
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'POST /api/clients/{id}/regenerate-secret',
      methods: ['POST'],
      path: victimId.map((id) => `/api/clients/${id}/regenerate-secret`),
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /api/clients/{id}/api-keys',
      methods: ['GET', 'POST'],
      path: segment(machine.id, machine.clientId, victim.id, webApp.id).map(
        (id) => `/api/clients/${id}/api-keys`,
      ),
      body: {
        type: 'json',
        fields: { name: field('CI', 'a'.repeat(256)) },
        valid: fc.constant({ name: 'CI' }),
      },
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'DELETE /api/clients/{id}/api-keys/{keyId}',
      methods: ['DELETE'],
      path: fc
        .tuple(
          segment(machine.id, victim.id),
          segment(machine.apiKeyId, '00000000-0000-4000-8000-000000000000'),
        )
        .map(([id, keyId]) => `/api/clients/${id}/api-keys/${keyId}`),
      headers: credentials,
      numRuns: runs(2000),
    },
    {
      name: 'GET /consents/',
      methods: ['GET'],
      path: fc.constantFrom('/consents/', '/consents', '/consents//'),
      headers: session(world, false),
      numRuns: runs(2000),
    },
    {
      name: 'DELETE /consents/{id}',
      methods: ['DELETE'],
      path: segment(world.consentId, '00000000-0000-4000-8000-000000000000').map((id) => `/consents/${id}`),
      headers: session(world, true),
      numRuns: runs(2000),
    },
  ];
}

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

/** RP-Initiated Logout 1.0 section 2 parameters; the hint is a token of ours that is no ID token. */
function logoutFields(world: HostileFixtures): Fields {
  return {
    id_token_hint: field(world.accessToken, world.refreshToken),
    post_logout_redirect_uri: field(LOGGED_OUT, REDIRECT_URI, 'https://evil.example/'),
    state: field('af0ifjsldkj'),
    client_id: field(world.webApp.clientId, world.publicApp.clientId),
    logout_hint: field(world.user.email),
    ui_locales: field('en', 'fr-CA en'),
  };
}

function validLogout(world: HostileFixtures): fc.Arbitrary<Pairs> {
  return fc.constantFrom<Pairs>(
    [
      ['client_id', world.webApp.clientId],
      ['state', 'xyz'],
    ],
    [
      ['client_id', world.webApp.clientId],
      ['post_logout_redirect_uri', REDIRECT_URI],
    ],
  );
}

const LOGGED_OUT = 'https://app.example/logged-out';
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
