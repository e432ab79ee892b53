import { UnauthorizedError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { decodeProtectedHeader } from 'jose';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeIdentity } from '../test/fake-identity.js';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../test/oauth-harness.js';

const environment = useTestEnvironment();
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

let identity: FakeIdentity;
let source: NodeJS.ProcessEnv;
const running: RunningOAuth[] = [];

beforeAll(async () => {
  identity = new FakeIdentity();
  identity.addUser('bob@example.com', 'correct horse battery');
  source = oauthTestSource(environment, await identity.start());
});

afterAll(async () => {
  await Promise.all(running.map((instance) => instance.close()));
  await identity?.close();
});

async function signingKeys(): Promise<Record<string, unknown>[]> {
  const db = new Client({ connectionString: environment.databaseUrl });
  await db.connect();
  try {
    return (await db.query('SELECT * FROM oauth.signing_keys ORDER BY created_at')).rows;
  } finally {
    await db.end();
  }
}

const login = (instance: RunningOAuth) =>
  instance.tokens
    .loginFirstParty({ email: 'bob@example.com', password: 'correct horse battery', origin })
    .then((response) => response.tokens!.accessToken);

describe('signing keys', () => {
  it('creates exactly one key when replicas start at once, and they share it', async () => {
    running.push(...(await Promise.all([startOAuth(source), startOAuth(source), startOAuth(source)])));
    const [a, b] = running as [RunningOAuth, RunningOAuth];
    expect(await signingKeys()).toHaveLength(1);
    const jwks = JSON.parse((await a.keys.getJwks({})).jwksJson);
    expect(jwks).toEqual({
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.any(String),
          kid: expect.any(String),
          alg: 'EdDSA',
          use: 'sig',
        },
      ],
    });
    expect((await b.keys.getJwks({})).jwksJson).toBe(JSON.stringify(jwks));
    // A token of one replica verifies on another and against the published JWKS.
    const token = await login(b);
    await expect(a.verifyWithJwks(token)).resolves.toBeTruthy();
    await expect(
      a.tokens.verifyAccessToken({ accessToken: token, requireFirstPartyUser: true }),
    ).resolves.toBeTruthy();
  });

  it('keeps the private key encrypted at rest', async () => {
    const [row] = await signingKeys();
    expect(row).toMatchObject({ status: 'active', alg: 'EdDSA' });
    expect(Object.keys(row!.public_jwk as object).sort()).toEqual(['crv', 'kty', 'x']);
    const stored = String(row!.private_key_encrypted);
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toMatch(/PRIVATE KEY|"d"|Ed25519/);
  });

  it('rotates without a restart; the retired key stays published and other replicas follow', async () => {
    const [a, b] = running as [RunningOAuth, RunningOAuth];
    const before = await login(a);
    const oldKid = decodeProtectedHeader(before).kid;
    await a.app.keys.rotateSigningKey();

    const after = await login(a);
    const newKid = decodeProtectedHeader(after).kid;
    expect(newKid).not.toBe(oldKid);
    const kids = JSON.parse((await a.keys.getJwks({})).jwksJson).keys.map((key: { kid: string }) => key.kid);
    expect(kids.sort()).toEqual([oldKid, newKid].sort());
    // Tokens of the retired key still verify until they expire.
    await expect(
      a.tokens.verifyAccessToken({ accessToken: before, requireFirstPartyUser: true }),
    ).resolves.toBeTruthy();
    // Replica b learns the new kid when it first sees it, and signs with it after a reload.
    await expect(
      b.tokens.verifyAccessToken({ accessToken: after, requireFirstPartyUser: true }),
    ).resolves.toBeTruthy();
    await b.app.keys.reload();
    expect(decodeProtectedHeader(await login(b)).kid).toBe(newKid);

    const rows = await signingKeys();
    expect(rows.map((row) => row.status)).toEqual(['retired', 'active']);
    const retired = rows[0]!;
    const published = (retired.publish_until as Date).getTime() - (retired.retired_at as Date).getTime();
    expect(published).toBe((900 + 60) * 1000);
  });

  it('refuses a token signed by a key it does not know', async () => {
    const [a] = running as [RunningOAuth];
    const token = await login(a);
    const [, payload, signature] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', kid: 'unknown' })).toString(
      'base64url',
    );
    const verify = a.tokens.verifyAccessToken({
      accessToken: `${header}.${payload}.${signature}`,
      requireFirstPartyUser: false,
    });
    await expect(verify).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('does not start with a different KEY_ENCRYPTION_KEY', async () => {
    await expect(startOAuth({ ...source, KEY_ENCRYPTION_KEY: 'ab'.repeat(32) })).rejects.toThrow();
  });
});
