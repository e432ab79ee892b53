import { LinkWalletCredentialOutcome } from '@authz/proto/identity/v1/identity';
import { InvalidRequestError, NotFoundError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, rejection, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';

// Wallet credentials as a second credential of a user (interface.md 2.6, 3; docs/wallet.md).
const environment = useTestEnvironment();
let identity: IdentityHarness;
let alice: string;
let bob: string;

const ISSUER = 'https://issuer.example';
const credential = (subject: string, email?: string, issuer = ISSUER) => ({
  issuer,
  subject,
  ...(email === undefined ? {} : { email }),
});

beforeAll(async () => {
  identity = await startIdentity(environment);
  alice = (await identity.client.register({ email: 'alice@example.com', password: 'a fine passphrase' }))
    .user!.id;
  bob = (await identity.client.register({ email: 'bob@example.com', password: 'a fine passphrase' })).user!
    .id;
});
afterAll(() => identity.close());

const storedCredentials = async () =>
  (
    await identity.sql.query(
      `SELECT user_id, issuer, subject_hash, email, row_to_json(w)::text AS everything
         FROM identity.wallet_credentials w ORDER BY created_at`,
    )
  ).rows as {
    user_id: string;
    issuer: string;
    subject_hash: string;
    email: string | null;
    everything: string;
  }[];

describe('LinkWalletCredential', () => {
  it('links once, is idempotent for the same user, and stores only the keyed hash of the subject', async () => {
    const first = await identity.client.linkWalletCredential({
      userId: alice,
      credential: credential('subject-alice-1', 'alice@wallet.example'),
      origin: ORIGIN,
    });
    expect(first.outcome).toBe(LinkWalletCredentialOutcome.LINKED);
    const again = await identity.client.linkWalletCredential({
      userId: alice,
      credential: credential('subject-alice-1'),
    });
    expect(again.outcome).toBe(LinkWalletCredentialOutcome.LINKED);
    const rows = await storedCredentials();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: alice, issuer: ISSUER, email: 'alice@wallet.example' });
    expect(rows[0]!.subject_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.everything).not.toContain('subject-alice-1');
    // Audited once, when the credential became a way into the account.
    const audited = await identity.sql.query(
      `SELECT actor_user_id, ip, details FROM identity.audit_events WHERE type = 'wallet_linked'`,
    );
    expect(audited.rows).toEqual([{ actor_user_id: alice, ip: ORIGIN.ip, details: { issuer: ISSUER } }]);
  });

  it('answers CONFLICT for a credential another account holds, writing nothing', async () => {
    const before = await storedCredentials();
    const outcome = await identity.client.linkWalletCredential({
      userId: bob,
      credential: credential('subject-alice-1', 'bob@wallet.example'),
    });
    expect(outcome.outcome).toBe(LinkWalletCredentialOutcome.CONFLICT);
    expect(await storedCredentials()).toEqual(before);
  });

  it('refuses an unknown user and an empty credential', async () => {
    const unknown = await rejection(
      identity.client.linkWalletCredential({
        userId: '00000000-0000-4000-8000-000000000000',
        credential: credential('subject-x'),
      }),
    );
    expect(unknown).toBeInstanceOf(NotFoundError);
    const empty = await rejection(
      identity.client.linkWalletCredential({ userId: bob, credential: credential('') }),
    );
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect(await storedCredentials()).toHaveLength(1);
  });
});

describe('SignInWithWallet', () => {
  it('opens a browser session for the linked account, the same sub every time', async () => {
    const signIn = () =>
      identity.client.signInWithWallet({ credential: credential('subject-alice-1'), origin: ORIGIN });
    const first = await signIn();
    const second = await signIn();
    expect(first.user!.id).toBe(alice);
    expect(second.user!.id).toBe(alice);
    expect(first.sessionToken).toMatch(/^[0-9a-f]{64}$/);
    expect(second.sessionToken).not.toBe(first.sessionToken);
    const session = await identity.client.getBrowserSession({ sessionToken: first.sessionToken });
    expect(session.user!.id).toBe(alice);
    expect(session.sessionId).toBe(first.sessionId);
    expect(session.csrfToken).toBe(first.csrfToken);
    expect(session.authTime).toBe(first.authTime);
  });

  it('refuses a credential linked to no account, including the same subject from another issuer', async () => {
    for (const unlinked of [
      credential('subject-nobody'),
      credential('subject-alice-1', undefined, 'https://other.example'),
    ]) {
      expect(await rejection(identity.client.signInWithWallet({ credential: unlinked }))).toBeInstanceOf(
        NotFoundError,
      );
    }
  });
});

describe('GetUser verified emails', () => {
  it('lists the wallet-attested address first, before the self-reported one', async () => {
    await identity.sql.query(`UPDATE identity.users SET email_verified = true WHERE id = $1`, [alice]);
    const { verifiedEmails } = await identity.client.getUser({ userId: alice });
    expect(verifiedEmails).toEqual([
      expect.objectContaining({ email: 'alice@wallet.example', source: 'wallet' }),
      expect.objectContaining({ email: 'alice@example.com', source: 'self_reported' }),
    ]);
    const bobs = await identity.client.getUser({ userId: bob });
    expect(bobs.verifiedEmails).toEqual([]);
  });
});
