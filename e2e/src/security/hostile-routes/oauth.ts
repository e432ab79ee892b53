import fc from 'fast-check';
import { REDIRECT_URI } from '../../support/code-flow.js';
import type { Fields, Pairs } from '../hostile-bodies.js';
import type { RouteSpec } from '../hostile-requests.js';
import { field } from '../hostile-strings.js';
import type { HostileFixtures } from '../hostile-suite.js';
import {
  authorizationFields,
  bearer,
  clientAuthentication,
  path,
  runs,
  session,
  tokenFields,
  tokenManagementFields,
  validAuthorization,
  validTokenManagement,
  validTokenRequest,
} from '../hostile-arbitraries.js';

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
