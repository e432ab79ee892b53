import type { JWK } from 'jose';

/** A signing key as stored: the public JWK and the private JWK encrypted at rest. */
export interface SigningKeyRecord {
  kid: string;
  publicJwk: JWK;
  /** `encryptWithKey(KEY_ENCRYPTION_KEY, privateJwk, kid)`: AES-256-GCM, kid as associated data. */
  privateKeyEncrypted: string;
  status: 'active' | 'retired';
  retiredAt: Date | null;
  /** A retired key stays in the JWKS until then, so tokens it signed still verify. */
  publishUntil: Date | null;
  /** An active key published ahead of use signs only from then on; null: at once. */
  activatesAt: Date | null;
}

export type NewSigningKey = Pick<SigningKeyRecord, 'kid' | 'publicJwk' | 'privateKeyEncrypted'>;

/**
 * Storage of signing keys (docs/conventions.md #7). Writers serialise on one lock shared by every
 * replica, so several replicas starting at once create exactly one active key.
 */
export interface SigningKeyStore {
  /** The active key and the retired keys still published at `now`. */
  listPublished(now: Date): Promise<SigningKeyRecord[]>;
  /** Inserts the key made by `create` unless an active key exists; true when it did. */
  ensureActive(create: () => Promise<NewSigningKey>): Promise<boolean>;
  /**
   * Retires the active key at `activatesAt` (published until `publishUntil`) and makes `next`
   * the active key from `activatesAt` on; until then the outgoing key keeps signing.
   */
  rotate(next: NewSigningKey, activatesAt: Date, publishUntil: Date): Promise<void>;
}
