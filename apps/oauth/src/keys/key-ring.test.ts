import { sign } from 'node:crypto';
import { UnauthorizedError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { decodeProtectedHeader } from 'jose';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeIdentity } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

const environment = useTestEnvironment();
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

let identity: FakeIdentity;
let source: NodeJS.ProcessEnv;
const running: RunningOAuth[] = [];

beforeAll(async () => {
  identity = new FakeIdentity();
  identity.addUser('bob@example.com', 'correct horse battery');
  // Replicas re-read the keys every three seconds here, so a rotation completes within the test
  // while the outgoing key still signs for long enough to be seen signing on a loaded machine.
  source = {
    ...oauthTestSource(environment, await identity.start()),
    SIGNING_KEY_RELOAD_INTERVAL_MS: '3000',
  };
});

afterAll(async () => {
  await Promise.all(running.map((instance) => instance.close()));
  await identity?.close();
});

async function signingKeys(alg?: string): Promise<Record<string, unknown>[]> {
  const db = new Client({ connectionString: environment.databaseUrl });
  await db.connect();
  try {
    const where = alg === undefined ? '' : 'WHERE alg = $1';
    const params = alg === undefined ? [] : [alg];
    return (await db.query(`SELECT * FROM oauth.signing_keys ${where} ORDER BY created_at`, params)).rows;
  } finally {
    await db.end();
  }
}

const login = (instance: RunningOAuth) =>
  instance.tokens
    .loginFirstParty({ email: 'bob@example.com', password: 'correct horse battery', origin })
    .then((response) => response.tokens!.accessToken);

describe('signing keys', () => {
  it('creates exactly one key per algorithm when replicas start at once, and they share them', async () => {
    running.push(...(await Promise.all([startOAuth(source), startOAuth(source), startOAuth(source)])));
    const [a, b] = running as [RunningOAuth, RunningOAuth];
    expect((await signingKeys()).map((row) => row.alg).sort()).toEqual(['EdDSA', 'RS256']);
    const jwks = JSON.parse((await a.keys.getJwks({})).jwksJson);
    expect(jwks.keys).toHaveLength(2);
    expect(jwks.keys).toEqual(
      expect.arrayContaining([
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.any(String),
          kid: expect.any(String),
          alg: 'EdDSA',
          use: 'sig',
        },
        { kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: expect.any(String), alg: 'RS256', use: 'sig' },
      ]),
    );
    // RSA 2048 (RFC 7518 section 3.3 minimum): a 256-byte modulus.
    const rsa = jwks.keys.find((key: { alg: string }) => key.alg === 'RS256');
    expect(Buffer.from(rsa.n, 'base64url').length).toBe(256);
    expect((await b.keys.getJwks({})).jwksJson).toBe(JSON.stringify(jwks));
    // A token of one replica verifies on another and against the published JWKS.
    const token = await login(b);
    await expect(a.verifyWithJwks(token)).resolves.toBeTruthy();
    await expect(
      a.tokens.verifyAccessToken({ accessToken: token, requireFirstPartyUser: true }),
    ).resolves.toBeTruthy();
  });

  it('keeps the private keys encrypted at rest', async () => {
    const [row] = await signingKeys('EdDSA');
    expect(row).toMatchObject({ status: 'active', alg: 'EdDSA' });
    expect(Object.keys(row!.public_jwk as object).sort()).toEqual(['crv', 'kty', 'x']);
    const stored = String(row!.private_key_encrypted);
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toMatch(/PRIVATE KEY|"d"|Ed25519/);
    const [rsa] = await signingKeys('RS256');
    expect(rsa).toMatchObject({ status: 'active', alg: 'RS256' });
    expect(Object.keys(rsa!.public_jwk as object).sort()).toEqual(['e', 'kty', 'n']);
    expect(String(rsa!.private_key_encrypted)).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(String(rsa!.private_key_encrypted)).not.toMatch(/PRIVATE KEY|"d"|"p"|"q"|RSA/);
  });

  it('signs with the RS256 key only when asked, and never verifies an access token with it', async () => {
    const [a] = running as [RunningOAuth];
    const rsa = a.app.keys.signingKey(Date.now(), 'RS256');
    const eddsa = a.app.keys.signingKey();
    expect(rsa.alg).toBe('RS256');
    expect(rsa.privateKey.asymmetricKeyType).toBe('rsa');
    expect(eddsa.alg).toBe('EdDSA');
    expect(rsa.kid).not.toBe(eddsa.kid);
    // Looked up under its own algorithm only.
    expect(await a.app.keys.verificationKey(rsa.kid, 'RS256')).toBeDefined();
    expect(await a.app.keys.verificationKey(rsa.kid)).toBeUndefined();
    expect(await a.app.keys.verificationKey(eddsa.kid, 'RS256')).toBeUndefined();
    // An access token signed with the RS256 key, every claim intact, is refused.
    const token = await login(a);
    const [, payload] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: rsa.kid })).toString(
      'base64url',
    );
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), rsa.privateKey).toString(
      'base64url',
    );
    const forged = `${header}.${payload}.${signature}`;
    await expect(a.verifyWithJwks(forged)).resolves.toBeTruthy();
    await expect(
      a.tokens.verifyAccessToken({ accessToken: forged, requireFirstPartyUser: true }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('rotates in two phases without a restart: published everywhere first, signing after', async () => {
    const [a, b] = running as [RunningOAuth, RunningOAuth];
    const kidOf = (token: string) => decodeProtectedHeader(token).kid;
    const publishedKids = async (instance: RunningOAuth) =>
      (JSON.parse((await instance.keys.getJwks({})).jwksJson).keys as { kid: string }[]).map(
        (key) => key.kid,
      );
    const before = await login(a);
    const oldKid = kidOf(before);
    const oldRsaKid = a.app.keys.signingKey(Date.now(), 'RS256').kid;
    const { kid: newKid, kids, activatesAt } = await a.app.keys.rotateSigningKey();
    // One call rotates both algorithms (docs/tokens.md #34).
    expect(kids.EdDSA).toBe(newKid);
    expect(kids.RS256).not.toBe(oldRsaKid);

    // Published at once by the rotating replica, but the outgoing key still signs.
    expect((await publishedKids(a)).sort()).toEqual([oldKid, newKid, oldRsaKid, kids.RS256].sort());
    expect(a.app.keys.signingKey(activatesAt.getTime() - 1, 'RS256').kid).toBe(oldRsaKid);
    expect(kidOf(await login(a))).toBe(oldKid);
    // The other replica publishes it on its next reload, before anyone signs with it.
    await vi.waitFor(async () => expect(await publishedKids(b)).toContain(newKid), { timeout: 15_000 });
    // Once active, both replicas sign with it.
    await vi.waitFor(async () => expect(kidOf(await login(a))).toBe(newKid), { timeout: 15_000 });
    await vi.waitFor(async () => expect(kidOf(await login(b))).toBe(newKid), { timeout: 15_000 });
    expect(b.app.keys.signingKey(Date.now(), 'RS256').kid).toBe(kids.RS256);
    // Tokens of the retired key still verify everywhere until they expire.
    for (const instance of [a, b]) {
      await expect(
        instance.tokens.verifyAccessToken({ accessToken: before, requireFirstPartyUser: true }),
      ).resolves.toBeTruthy();
    }

    for (const alg of ['EdDSA', 'RS256']) {
      const rows = await signingKeys(alg);
      expect(rows.map((row) => row.status)).toEqual(['retired', 'active']);
      const [retired, active] = rows as [Record<string, Date>, Record<string, Date>];
      expect(retired.retired_at!.getTime()).toBe(active.activates_at!.getTime());
      // Published for the token lifetime plus one reload interval after it stopped signing.
      expect(retired.publish_until!.getTime() - retired.retired_at!.getTime()).toBe(900_000 + 3000);
    }
  }, 60_000);

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
