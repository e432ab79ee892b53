import type { OutboxMail } from '../recovery/account-recovery-store.js';

/** A stored passkey (docs/strong-authentication.md #15). */
export interface StoredPasskey {
  id: string;
  userId: string;
  /** base64url, as WebAuthn names the credential. */
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Omit<StoredPasskey, 'id' | 'createdAt' | 'lastUsedAt'>;

/** Storage of passkeys (docs/conventions.md #7). */
export interface PasskeyStore {
  list(userId: string): Promise<StoredPasskey[]>;
  findByCredentialId(credentialId: string): Promise<StoredPasskey | undefined>;
  /** Stores it and queues the notice, all or nothing; false when the credential id is taken. */
  add(passkey: NewPasskey, notice: OutboxMail): Promise<StoredPasskey | undefined>;
  /**
   * Records a use: the new counter and backup state, now as last use. With `expectedCount`, only
   * while the stored counter is still that value (two racing uses cannot both pass).
   */
  recordUse(
    id: string,
    use: { signCount: number; backedUp: boolean; expectedCount: number },
    now: Date,
  ): Promise<boolean>;
  rename(userId: string, id: string, name: string): Promise<boolean>;
  /** Removes it and queues the notice, unless it is the account's last way to sign in. */
  remove(userId: string, id: string, notice: OutboxMail): Promise<'removed' | 'not_found' | 'last_method'>;
}
