import { UnauthorizedError, ValidationError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { decodeJwt } from 'jose';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

// UserTokensService.RevokeUserTokens (docs/tokens.md #31): the family walk and the per-user cut-off.
const environment = useTestEnvironment();
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

let identity: FakeIdentity;
let oauth: RunningOAuth;
let alice: FakeUser;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'correct horse battery');
  oauth = await startOAuth(oauthTestSource(environment, await identity.start()));
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
});

const login = () =>
  oauth.tokens
    .loginFirstParty({ email: alice.email, password: alice.password, origin })
    .then((r) => r.tokens!);

const isLive = (accessToken: string) =>
  oauth.tokens.verifyAccessToken({ accessToken, requireFirstPartyUser: true }).then(
    () => true,
    (error: unknown) => {
      if (error instanceof UnauthorizedError) return false;
      throw error;
    },
  );

async function forgetRefreshTokens(accessToken: string): Promise<void> {
  const db = new Client({ connectionString: environment.databaseUrl });
  await db.connect();
  try {
    await db.query('DELETE FROM oauth.refresh_tokens WHERE access_token_jti = $1', [
      decodeJwt(accessToken).jti,
    ]);
  } finally {
    await db.end();
  }
}

describe('UserTokensService.RevokeUserTokens', () => {
  it('spares the named session and denies every other token, remembered by a family or not', async () => {
    const kept = await login();
    const other = await login();
    const unremembered = await login();
    // No family remembers this access token any more: only the cut-off can deny it.
    await forgetRefreshTokens(unremembered.accessToken);
    const sid = decodeJwt(kept.accessToken).sid as string;

    const started = Date.now();
    const { revokedFamilies } = await oauth.userTokens.revokeUserTokens({
      userId: alice.id,
      exceptSessionId: sid,
    });
    expect(revokedFamilies).toBe(2);
    // The answer waits for the next second at most (the cut-off's resolution), not longer.
    expect(Date.now() - started).toBeLessThan(5000);

    expect(await isLive(kept.accessToken)).toBe(true);
    expect(await isLive(other.accessToken)).toBe(false);
    expect(await isLive(unremembered.accessToken)).toBe(false);
    // A sign-in after the answer is never caught by the cut-off.
    expect(await isLive((await login()).accessToken)).toBe(true);

    await oauth.userTokens.revokeUserTokens({ userId: alice.id });
    expect(await isLive(kept.accessToken)).toBe(false);
    expect(await isLive((await login()).accessToken)).toBe(true);
  });

  it('refuses malformed ids', async () => {
    await expect(oauth.userTokens.revokeUserTokens({ userId: 'nope' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      oauth.userTokens.revokeUserTokens({ userId: alice.id, exceptSessionId: 'nope' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
