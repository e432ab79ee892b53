import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import fc from 'fast-check';
import { REDIRECT_URI } from '../support/code-flow.js';
import type { Fields, Pairs } from './hostile-bodies.js';
import { field, hostileString, pathVariants, percentEncode } from './hostile-strings.js';
import type { HostileFixtures } from './hostile-suite.js';

/**
 * Building blocks of the hostile-input route catalogue (hostile-routes/): run counts,
 * credentials, sessions and valid requests of each kind that generators then spoil.
 * `numRuns` counts scale with HOSTILE_INPUT_RUNS_SCALE (docs/security.md "Hostile input").
 */
const SCALE = Number(process.env.HOSTILE_INPUT_RUNS_SCALE ?? '1') || 1;
export const runs = (count: number) => Math.max(1, Math.round(count * SCALE));

export const path = (value: string) => pathVariants(fc.constant(value));
export const hex64 = () => randomBytes(32).toString('hex');
export const base64url43 = () => randomBytes(32).toString('base64url');
/** RFC 7636 section 4.2: an S256 challenge's shape (43 base64url characters). */
const challenge = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Buffer.from(bytes).toString('base64url'));

/** RFC 6749 section 2.3.1: each part form-urlencoded, then Base64; any text, lone surrogates too. */
function basicAuth(clientId: string, secret: string): Record<string, string> {
  const credentials = Buffer.from(`${percentEncode(clientId)}:${percentEncode(secret)}`).toString('base64');
  return { authorization: `Basic ${credentials}` };
}

/** The first token is the one the route takes: sent most often, so requests get past authentication. */
export function bearer(...tokens: string[]): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: fc.constant({ authorization: `Bearer ${tokens[0]!}` }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...tokens).map((token) => ({ authorization: `Bearer ${token}` })),
    },
    {
      weight: 1,
      arbitrary: hostileString.map((token) => ({
        authorization: `Bearer ${Buffer.from(token).toString('base64url')}`,
      })),
    },
  );
}

/** Client authentication (interface.md 5): right and wrong Basic pairs, API keys, or none (body credentials). */
export function clientAuthentication(world: HostileFixtures): fc.Arbitrary<Record<string, string>> {
  const { webApp, machine, publicApp } = world;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: fc.constant(basicAuth(webApp.clientId, webApp.clientSecret!)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        basicAuth(webApp.clientId, 'wrong-secret'),
        basicAuth(machine.clientId, machine.clientSecret),
        basicAuth(machine.clientId, machine.apiKey),
        basicAuth(publicApp.clientId, ''),
        basicAuth('authz-first-party', ''),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(hostileString, hostileString).map(([id, secret]) => basicAuth(id, secret)),
    },
  );
}

export function session(world: HostileFixtures, withCsrf: boolean): fc.Arbitrary<Record<string, string>> {
  const cookie = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fc.constant(`${SESSION_COOKIE}=${world.sessionToken}`) },
    {
      weight: 1,
      arbitrary: fc.constant(`${SESSION_COOKIE}=${world.sessionToken}; ${SESSION_COOKIE}=${hex64()}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 64 })
        .map((value) => `${SESSION_COOKIE}=${encodeURIComponent(value)}`),
    },
  );
  const csrf = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constant(world.csrfToken) },
    { weight: 1, arbitrary: fc.constantFrom('', hex64(), 'x', world.csrfToken.toUpperCase()) },
  );
  return fc.tuple(cookie, withCsrf ? csrf : fc.constant(undefined)).map(([value, token]) => ({
    ...(value === undefined ? {} : { cookie: value }),
    ...(token === undefined ? {} : { 'x-csrf-token': token }),
  }));
}

/** A valid authorization request of the web app (fresh PKCE challenge, consented scope). */
export function validAuthorization(world: HostileFixtures): fc.Arbitrary<Pairs> {
  return fc.tuple(fc.constantFrom('af0ifjsldkj', 'xyz'), challenge).map(([state, codeChallenge]): Pairs => [
    ['response_type', 'code'],
    ['client_id', world.webApp.clientId],
    ['redirect_uri', REDIRECT_URI],
    ['scope', 'openid email'],
    ['state', state],
    ['nonce', 'n-0S6_WzA2Mj'],
    ['code_challenge', codeChallenge],
    ['code_challenge_method', 'S256'],
  ]);
}

/** Parameters of the authorization request (RFC 6749 4.1.1, RFC 7636 4.3, OIDC Core 3.1.2.1). */
export function authorizationFields(world: HostileFixtures): Fields {
  return {
    response_type: field('code', 'token', 'code id_token', 'none'),
    client_id: field(
      world.webApp.clientId,
      world.publicApp.clientId,
      world.machine.clientId,
      'authz-first-party',
    ),
    redirect_uri: field(
      REDIRECT_URI,
      `${REDIRECT_URI}/`,
      REDIRECT_URI.toUpperCase(),
      `${REDIRECT_URI}?next=https://evil.example`,
      'https://evil.example/callback',
      'https://app.example.evil.example/callback',
    ),
    scope: field('openid', 'openid email', 'openid email profile offline_access', 'admin'),
    state: field(),
    nonce: field(),
    code_challenge: field(base64url43()),
    code_challenge_method: field('S256', 'plain', 's256'),
    prompt: field('none', 'login', 'consent', 'none login', 'select_account'),
    max_age: field('0', '3600', '-1', '1e3'),
    resource: field('https://api.example', 'https://api.example#fragment', '/relative'),
    response_mode: field('query', 'fragment', 'form_post'),
    request: field('eyJhbGciOiJub25lIn0.e30.'),
    request_uri: field('urn:ietf:params:oauth:request_uri:x'),
    login_hint: field(world.user.email),
    claims: field('{"userinfo":{"email":null}}'),
  };
}

/** Token-endpoint parameters (interface.md 4.3 "Known token-endpoint parameters", RFC 6749, 7636, 7523, 8693). */
export function tokenFields(world: HostileFixtures): Fields {
  return {
    grant_type: field(
      'authorization_code',
      'refresh_token',
      'client_credentials',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'password',
    ),
    client_id: field(
      world.webApp.clientId,
      world.publicApp.clientId,
      world.machine.clientId,
      'authz-first-party',
    ),
    client_secret: field(world.machine.clientSecret, world.machine.apiKey, ''),
    code: field(base64url43()),
    redirect_uri: field(REDIRECT_URI, 'https://evil.example/callback'),
    code_verifier: field(base64url43(), 'a'.repeat(129)),
    refresh_token: field(world.refreshToken, hex64()),
    scope: field('openid', 'openid email', 'profile email', 'admin'),
    resource: field('https://api.example', 'https://api.example#fragment', '/relative'),
    audience: field('https://api.example'),
    client_assertion_type: field('urn:ietf:params:oauth:client-assertion-type:jwt-bearer'),
    client_assertion: field('eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4Iiwic3ViIjoieCJ9.', world.accessToken),
    subject_token: field(world.accessToken),
    subject_token_type: field('urn:ietf:params:oauth:token-type:access_token'),
    actor_token: field(world.accessToken),
    actor_token_type: field('urn:ietf:params:oauth:token-type:access_token'),
    requested_token_type: field('urn:ietf:params:oauth:token-type:id-jag'),
    assertion: field(world.idToken),
  };
}

/** Token requests that pass client authentication and reach each grant (body credentials or Basic). */
export function validTokenRequest(world: HostileFixtures): fc.Arbitrary<Pairs> {
  const { machine, publicApp } = world;
  return fc
    .tuple(challenge, fc.constantFrom('client_credentials', 'refresh_token', 'authorization_code'))
    .map(([code, grant]): Pairs => {
      if (grant === 'client_credentials') {
        return [
          ['grant_type', grant],
          ['client_id', machine.clientId],
          ['client_secret', machine.apiKey],
          ['scope', 'profile'],
          ['resource', 'https://api.example'],
        ];
      }
      if (grant === 'refresh_token') {
        return [
          ['grant_type', grant],
          ['refresh_token', hex64()],
          ['client_id', publicApp.clientId],
          ['scope', 'openid'],
        ];
      }
      return [
        ['grant_type', grant],
        ['code', code],
        ['redirect_uri', REDIRECT_URI],
        ['code_verifier', base64url43()],
        ['client_id', publicApp.clientId],
      ];
    });
}

export function validTokenManagement(world: HostileFixtures): fc.Arbitrary<Pairs> {
  return fc.constantFrom(world.accessToken, world.refreshToken, hex64()).map((token): Pairs => [
    ['token', token],
    ['token_type_hint', 'access_token'],
  ]);
}

export function tokenManagementFields(world: HostileFixtures): Fields {
  return {
    token: field(world.accessToken, world.refreshToken, world.idToken, hex64()),
    token_type_hint: field('access_token', 'refresh_token', 'id_token'),
    client_id: field(world.webApp.clientId, world.machine.clientId),
    client_secret: field(world.machine.clientSecret, world.machine.apiKey),
  };
}
