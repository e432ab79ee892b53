import type { JWK } from 'jose';

/**
 * The JWS algorithms this server signs with (docs/decisions.md #11): EdDSA (Ed25519) for every
 * token, RS256 (RSA 2048) only for the ID tokens of clients registered for it.
 */
export const SIGNING_ALGS = ['EdDSA', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** A signing key as stored: the public JWK and the private JWK encrypted at rest. */
export interface SigningKeyRecord {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  /** `encryptWithKey(KEY_ENCRYPTION_KEY, privateJwk, kid)`: AES-256-GCM, kid as associated data. */
  privateKeyEncrypted: string;
  status: 'active' | 'retired';
  createdAt: Date;
  retiredAt: Date | null;
  /** A retired key stays in the JWKS until then, so tokens it signed still verify. */
  publishUntil: Date | null;
  /** An active key published ahead of use signs only from then on; null: at once. */
  activatesAt: Date | null;
}

export type NewSigningKey = Pick<SigningKeyRecord, 'kid' | 'alg' | 'publicJwk' | 'privateKeyEncrypted'>;

/**
 * Storage of signing keys (docs/conventions.md #7), one active key per algorithm. Writers
 * serialise on one lock shared by every replica, so several replicas starting at once create
 * exactly one active key of each algorithm.
 */
export interface SigningKeyStore {
  /** The active keys and the retired keys still published at `now`. */
  listPublished(now: Date): Promise<SigningKeyRecord[]>;
  /** Inserts the key made by `create` unless an active key of `alg` exists; true when it did. */
  ensureActive(alg: SigningAlg, create: () => Promise<NewSigningKey>): Promise<boolean>;
  /**
   * For each key of `next`, in one transaction: retires the active key of its algorithm at
   * `activatesAt` (published until `publishUntil`) and makes it the active key from `activatesAt`
   * on; until then the outgoing key keeps signing.
   */
  rotate(next: readonly NewSigningKey[], activatesAt: Date, publishUntil: Date): Promise<void>;
}
