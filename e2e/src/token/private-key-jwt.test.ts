import { randomUUID } from 'node:crypto';
import { CLIENT_ASSERTION_TYPE } from '@authz/shared/protocol';
import { TestDocumentServer } from '@authz/shared/testing';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDevelopers } from '../support/use-developers.js';
import {
  INVALID_CLIENT,
  machineClient,
  newClient,
  requestToken,
  verifyAtJwks,
  type FormField,
} from '../support/tokens.js';

// interface.md 5 private_key_jwt (RFC 7523) at POST /oauth/token through the gateway; keys registered
// inline (`jwks`) or by reference (`jwksUri`, docs/decisions.md #16) on a loopback key server.
const context = useDevelopers({}, { CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let keyServer: TestDocumentServer;
let key: { privateKey: CryptoKey; jwk: JWK };

beforeAll(async () => {
  keyServer = await TestDocumentServer.start();
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  key = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'signing-1', use: 'sig' } };
});
afterAll(() => keyServer.close());

async function jwtClient(keys: Record<string, unknown>): Promise<string> {
  const created = await newClient(context.suite, context.alice.token, {
    ...machineClient,
    tokenEndpointAuthMethod: 'private_key_jwt',
    ...keys,
  });
  return created.clientId as string;
}

function assertion(
  clientId: string,
  claims: { aud?: string | string[]; expiresIn?: number; jti?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA', kid: 'signing-1' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(claims.aud ?? context.suite.baseUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresIn ?? 60))
    .setJti(claims.jti ?? randomUUID())
    .sign(key.privateKey);
}

const withAssertion = (clientAssertion: string, extra: FormField[] = []): FormField[] => [
  ['grant_type', 'client_credentials'],
  ['client_assertion_type', CLIENT_ASSERTION_TYPE],
  ['client_assertion', clientAssertion],
  ...extra,
];

async function expectInvalidClient(fields: FormField[]) {
  const response = await requestToken(context.suite, fields);
  expect(response.status).toBe(401);
  expect(response.body).toEqual(INVALID_CLIENT);
  // No Basic was used, so no Basic challenge (RFC 6749 section 5.2).
  expect(response.headers.get('www-authenticate')).toBeNull();
}

describe('private_key_jwt with inline jwks', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await jwtClient({ jwks: { keys: [key.jwk] } });
  });

  it('issues a client_credentials token for a valid assertion', async () => {
    const response = await requestToken(
      context.suite,
      withAssertion(await assertion(clientId), [['scope', 'email']]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'email',
    });
    const { payload } = await verifyAtJwks(context.suite, response.body.access_token as string);
    expect(payload).toMatchObject({ sub: clientId, client_id: clientId, aud: clientId, scope: 'email' });
  });

  it('accepts a matching body client_id', async () => {
    const jwt = await assertion(clientId);
    const response = await requestToken(context.suite, withAssertion(jwt, [['client_id', clientId]]));
    expect(response.status).toBe(200);
  });

  it('refuses a replayed assertion', async () => {
    const jwt = await assertion(clientId);
    expect((await requestToken(context.suite, withAssertion(jwt))).status).toBe(200);
    await expectInvalidClient(withAssertion(jwt));
  });

  it('refuses an expired assertion and one that lives too long', async () => {
    await expectInvalidClient(withAssertion(await assertion(clientId, { expiresIn: -120 })));
    await expectInvalidClient(withAssertion(await assertion(clientId, { expiresIn: 3600 })));
  });

  it('refuses a wrong audience', async () => {
    await expectInvalidClient(
      withAssertion(await assertion(clientId, { aud: 'https://other.example/oauth/token' })),
    );
    await expectInvalidClient(
      withAssertion(await assertion(clientId, { aud: `${context.suite.baseUrl}/oauth/introspect` })),
    );
  });

  // draft-ietf-oauth-rfc7523bis, updating RFC 7523 section 3: aud is the issuer alone, a string.
  it('refuses the token endpoint URL as audience, and an array even when it names the issuer', async () => {
    await expectInvalidClient(
      withAssertion(await assertion(clientId, { aud: `${context.suite.baseUrl}/oauth/token` })),
    );
    await expectInvalidClient(withAssertion(await assertion(clientId, { aud: [context.suite.baseUrl] })));
  });

  it('refuses a body client_id naming another client and an unknown assertion type', async () => {
    await expectInvalidClient(withAssertion(await assertion(clientId), [['client_id', randomUUID()]]));
    await expectInvalidClient([
      ['grant_type', 'client_credentials'],
      ['client_assertion_type', 'urn:example:other'],
      ['client_assertion', await assertion(clientId)],
    ]);
  });
});

describe('private_key_jwt with a jwks_uri', () => {
  it('fetches the registered key set and verifies with it', async () => {
    keyServer.serve('/jwks.json', { body: { keys: [key.jwk] } });
    const clientId = await jwtClient({ jwksUri: keyServer.url('/jwks.json') });
    const response = await requestToken(context.suite, withAssertion(await assertion(clientId)));
    expect(response.status).toBe(200);
    expect(keyServer.requests('/jwks.json')).toBe(1);
  });

  it('refuses when the key set does not hold the signing key', async () => {
    const other = await generateKeyPair('EdDSA', { extractable: true });
    keyServer.serve('/other-jwks.json', {
      body: { keys: [{ ...(await exportJWK(other.publicKey)), kid: 'signing-1' }] },
    });
    const clientId = await jwtClient({ jwksUri: keyServer.url('/other-jwks.json') });
    await expectInvalidClient(withAssertion(await assertion(clientId)));
  });
});
