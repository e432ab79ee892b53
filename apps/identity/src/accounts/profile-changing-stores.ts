import type { AdminStore } from '../admin/admin-store.js';
import type { AccountDeletionStore } from '../deletion/account-deletion-store.js';
import type { FederatedCredentialStore } from '../federation/federated-credential-store.js';
import type { AccountRecoveryStore } from '../recovery/account-recovery-store.js';
import type { VerificationStore } from '../verification/verification-store.js';
import type { WalletCredentialStore } from '../wallet/wallet-credential-store.js';
import type { AccountStore } from './account-store.js';
import { announcing } from './announced-profile-changes.js';
import type { UserChanges } from './user-changes.js';

export interface ProfileChangingStores {
  accounts: AccountStore;
  verifications: VerificationStore;
  recovery: AccountRecoveryStore;
  walletCredentials: WalletCredentialStore;
  federatedCredentials: FederatedCredentialStore;
  admin: AdminStore;
  deletions: AccountDeletionStore;
}

/**
 * Every write that changes what GetUser answers (docs/identity.md #25): the account's address,
 * its verification, its name, its deletion, and the wallet and upstream identities whose
 * verified addresses it lists, most recently used first (so a sign-in through one reorders
 * them). A new account is announced by nobody: no cache can hold a profile it never had.
 */
/** The account a call named (its first argument), when its outcome is `wanted`. */
const accountIfOutcome = (wanted: string) => (outcome: unknown, userId: string) =>
  outcome === wanted ? userId : undefined;

/** The account a call named (its first argument), when it answered anything (found and changed). */
const accountIfAnswered = (answer: unknown, userId: string) => (answer ? userId : undefined);

export function announceProfileChanges(
  stores: ProfileChangingStores,
  changes: UserChanges,
): ProfileChangingStores {
  return {
    accounts: announcing(
      stores.accounts,
      { updateName: { reason: 'name_changed', changed: accountIfAnswered } },
      changes,
    ),
    verifications: announcing(
      stores.verifications,
      { consume: { reason: 'email_verified', changed: (verified) => verified?.userId } },
      changes,
    ),
    recovery: announcing(
      stores.recovery,
      {
        completePasswordReset: { reason: 'password_reset', changed: (userId) => userId },
        confirmEmailChange: {
          reason: 'email_changed',
          changed: (change) => (change.outcome === 'changed' ? change.userId : undefined),
        },
      },
      changes,
    ),
    walletCredentials: announcing(
      stores.walletCredentials,
      {
        link: {
          reason: 'wallet_linked',
          changed: accountIfOutcome('linked'),
        },
        signIn: { reason: 'wallet_used', changed: (signedIn) => signedIn?.user.id },
      },
      changes,
    ),
    federatedCredentials: announcing(
      stores.federatedCredentials,
      {
        link: {
          reason: 'upstream_identity_linked',
          changed: accountIfOutcome('linked'),
        },
        signIn: { reason: 'upstream_identity_used', changed: (signedIn) => signedIn?.user.id },
        unlink: {
          reason: 'upstream_identity_unlinked',
          changed: accountIfOutcome('unlinked'),
        },
      },
      changes,
    ),
    admin: announcing(
      stores.admin,
      {
        updateUser: { reason: 'admin_updated', changed: accountIfAnswered },
      },
      changes,
    ),
    deletions: announcing(
      stores.deletions,
      {
        markDeleting: {
          reason: 'deletion_started',
          changed: accountIfAnswered,
        },
        deleteAccount: {
          reason: 'deleted',
          changed: accountIfOutcome('deleted'),
        },
      },
      changes,
    ),
  };
}
