import { createPrismaAdapter } from '@authz/shared/database';
import { InvalidCredentialsError, NotFoundError } from '@authz/shared/errors';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, rejection, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaSessionStore } from '../storage/prisma-session-store.js';

// docs/admin-api.md #4: a disabled account signs in by no method. The sign-in paths refuse it
// with their usual answer, and the sessions trigger refuses any session whatever code opens it.
const environment = useTestEnvironment();
let identity: IdentityHarness;
let prisma: PrismaClient;
let userId: string;
const PASSWORD = 'a fine passphrase';
const wallet = { issuer: 'https://issuer.example', subject: 'subject-disabled' };

beforeAll(async () => {
  identity = await startIdentity(environment);
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  userId = (await identity.client.register({ email: 'carol@example.com', password: PASSWORD })).user!.id;
  await identity.client.linkWalletCredential({ userId, credential: wallet, origin: ORIGIN });
  await identity.sql.query('UPDATE identity.users SET disabled_at = now() WHERE id = $1', [userId]);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await identity?.close();
});

const sessionCount = async () =>
  (await identity.sql.query('SELECT count(*)::int AS n FROM identity.sessions WHERE user_id = $1', [userId]))
    .rows[0].n as number;

describe('a disabled account', () => {
  it('is refused by the password check exactly as a wrong password, and audited as such', async () => {
    const disabled = await rejection(
      identity.client.checkCredentials({ email: 'carol@example.com', password: PASSWORD, origin: ORIGIN }),
    );
    const wrong = await rejection(
      identity.client.checkCredentials({
        email: 'carol@example.com',
        password: 'not it at all',
        origin: ORIGIN,
      }),
    );
    expect(disabled).toBeInstanceOf(InvalidCredentialsError);
    expect(wrong).toBeInstanceOf(InvalidCredentialsError);
    expect((disabled as Error).message).toBe((wrong as Error).message);
    const { rows } = await identity.sql.query(
      `SELECT details FROM identity.audit_events WHERE type = 'login_failure' AND actor_user_id = $1 ORDER BY id`,
      [userId],
    );
    // Both attempts met a disabled account; the log says so, the answer does not.
    expect(rows.map((row) => row.details.disabled ?? false)).toEqual([true, true]);
  });

  it('is refused by the wallet sign-in as a credential linked to nobody', async () => {
    expect(
      await rejection(identity.client.signInWithWallet({ credential: wallet, origin: ORIGIN })),
    ).toBeInstanceOf(NotFoundError);
  });

  it('gets no session from any code: the trigger refuses it, and the store answers bad credentials', async () => {
    await expect(
      identity.sql.query(
        `INSERT INTO identity.sessions (id, user_id, auth_time, expires_at)
         VALUES (gen_random_uuid(), $1, now(), now() + interval '1 day')`,
        [userId],
      ),
    ).rejects.toThrow(/account_unavailable/);
    const store = new PrismaSessionStore(prisma);
    const opening = store.open({
      userId,
      authTime: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
      tokenHash: null,
    });
    await expect(opening).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(await sessionCount()).toBe(0);

    // Enabled again, the same store opens sessions as before.
    await identity.sql.query('UPDATE identity.users SET disabled_at = NULL WHERE id = $1', [userId]);
    await store.open({
      userId,
      authTime: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
      tokenHash: null,
    });
    expect(await sessionCount()).toBe(1);
  });
});
