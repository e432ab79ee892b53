import fc from 'fast-check';
import { REDIRECT_URI } from '../../support/code-flow.js';
import type { Fields } from '../hostile-bodies.js';
import type { RouteSpec } from '../hostile-requests.js';
import { field, segment } from '../hostile-strings.js';
import type { HostileFixtures } from '../hostile-suite.js';
import { bearer, runs, session } from '../hostile-arbitraries.js';

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
