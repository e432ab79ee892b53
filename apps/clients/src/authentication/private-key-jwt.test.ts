import { randomUUID } from 'node:crypto';
import { InvalidClientError, toOAuthWire } from '@authz/shared/errors';
import { CLIENT_ASSERTION_TYPE } from '@authz/shared/protocol';
import { TestDocumentServer, useTestEnvironment } from '@authz/shared/testing';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOwner, rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// RFC 7523 client assertions (private_key_jwt) over real gRPC, Postgres and Redis.
const environment = useTestEnvironment();
const ISSUER = 'https://issuer.test';
const TOKEN_ENDPOINT = `${ISSUER}/oauth/token`;
let clients: ClientsHarness;
let documents: TestDocumentServer;
let key: { privateKey: CryptoKey; jwk: JWK };

beforeAll(async () => {
  clients = await startClients(environment, { JWT_ISSUER: ISSUER, CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
  documents = await TestDocumentServer.start();
  key = await signingKey('key-1');
});
afterAll(async () => {
  await clients.close();
  await documents.close();
});

async function signingKey(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' } };
}

async function createJwtClient(keys: { jwks?: object; jwksUri?: string }) {
  const { client } = await clients.client.createClient({
    owner: newOwner(),
    settings: {
      name: 'Signed machine',
      grantTypes: { values: ['client_credentials'] },
      responseTypes: { values: [] },
      tokenEndpointAuthMethod: 'private_key_jwt',
      ...(keys.jwks ? { jwks: { value: JSON.stringify(keys.jwks) } } : {}),
      ...(keys.jwksUri ? { jwksUri: { value: keys.jwksUri } } : {}),
    },
  });
  return client!.clientId;
}

interface AssertionOptions {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  expiresIn?: number;
  jti?: string | null;
  signer?: { privateKey: CryptoKey; jwk: JWK };
}

async function assertion(clientId: string, options: AssertionOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signer = options.signer ?? key;
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA', kid: signer.jwk.kid! })
    .setIssuer(options.iss ?? clientId)
    .setSubject(options.sub ?? clientId)
    .setAudience(options.aud ?? ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 60));
  if (options.jti !== null) jwt.setJti(options.jti ?? randomUUID());
  return jwt.sign(signer.privateKey);
}

const authenticate = (clientAssertion: string, extra: Record<string, unknown> = {}) =>
  clients.client.authenticateClient({
    clientAssertionType: CLIENT_ASSERTION_TYPE,
    clientAssertion,
    grantType: 'client_credentials',
    ...extra,
  });

async function expectRejected(promise: Promise<unknown>) {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(InvalidClientError);
  expect(toOAuthWire(error as InvalidClientError)).toEqual({
    error: 'invalid_client',
    code: 'INVALID_CLIENT',
    statusCode: 401,
  });
}

describe('private_key_jwt with registered jwks', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await createJwtClient({ jwks: { keys: [key.jwk] } });
  });

  it('accepts an assertion whose aud is the issuer, with or without a body client_id', async () => {
    const { client } = await authenticate(await assertion(clientId));
    expect(client).toMatchObject({
      clientId,
      tokenEndpointAuthMethod: 'private_key_jwt',
      source: 'pre_registered',
    });
    await authenticate(await assertion(clientId, { aud: ISSUER }), { bodyClientId: clientId });
  });

  // draft-ietf-oauth-rfc7523bis, updating RFC 7523 section 3: aud is the issuer alone, a string.
  it('refuses the token endpoint URL as audience, and any array, even one naming the issuer', async () => {
    await expectRejected(authenticate(await assertion(clientId, { aud: TOKEN_ENDPOINT })));
    await expectRejected(authenticate(await assertion(clientId, { aud: [ISSUER] })));
    await expectRejected(
      authenticate(await assertion(clientId, { aud: ['https://elsewhere.test', ISSUER] })),
    );
  });

  it('refuses a replayed jti, even inside its lifetime', async () => {
    const jwt = await assertion(clientId);
    await authenticate(jwt);
    await expectRejected(authenticate(jwt));
    // A new assertion that reuses the jti is a replay too.
    const jti = randomUUID();
    await authenticate(await assertion(clientId, { jti }));
    await expectRejected(authenticate(await assertion(clientId, { jti })));
  });

  it('refuses expired, too long-lived and jti-less assertions', async () => {
    await expectRejected(authenticate(await assertion(clientId, { expiresIn: -120 })));
    await expectRejected(authenticate(await assertion(clientId, { expiresIn: 3600 })));
    await expectRejected(authenticate(await assertion(clientId, { jti: null })));
  });

  it('refuses a wrong audience, issuer or subject', async () => {
    await expectRejected(
      authenticate(await assertion(clientId, { aud: 'https://other-server.test/oauth/token' })),
    );
    await expectRejected(authenticate(await assertion(clientId, { iss: 'someone-else' })));
    await expectRejected(authenticate(await assertion(clientId, { sub: randomUUID(), iss: randomUUID() })));
  });

  it('refuses a key the client did not register and a symmetric signature', async () => {
    await expectRejected(authenticate(await assertion(clientId, { signer: await signingKey('key-1') })));
    const secret = new TextEncoder().encode('a'.repeat(32));
    const hmac = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(ISSUER)
      .setExpirationTime('1m')
      .sign(secret);
    await expectRejected(authenticate(hmac));
  });

  it('refuses misuse of the request: wrong type, differing client_id, a secret as well, shared-secret endpoints', async () => {
    await expectRejected(
      authenticate(await assertion(clientId), {
        clientAssertionType: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
      }),
    );
    await expectRejected(authenticate(await assertion(clientId), { bodyClientId: randomUUID() }));
    await expectRejected(authenticate(await assertion(clientId), { bodyClientSecret: 'x' }));
    await expectRejected(authenticate(await assertion(clientId), { sharedSecretOnly: true }));
    await expectRejected(authenticate('not-a-jwt'));
  });
});

describe('private_key_jwt with a jwks_uri', () => {
  it('fetches the key set once and verifies with it', async () => {
    documents.serve('/jwks-a', {
      body: { keys: [key.jwk] },
      headers: { 'content-type': 'application/jwk-set+json' },
    });
    const clientId = await createJwtClient({ jwksUri: documents.url('/jwks-a') });
    await authenticate(await assertion(clientId));
    await authenticate(await assertion(clientId));
    expect(documents.requests('/jwks-a')).toBe(1);
  });

  it('refuses when the key set cannot be fetched', async () => {
    const clientId = await createJwtClient({ jwksUri: documents.url('/missing-jwks') });
    await expectRejected(authenticate(await assertion(clientId)));
  });
});
