import type { Logger } from '@authz/shared/logger';
import type { CryptoKey, JWK } from 'jose';
import { decryptPrivateKey, generateSigningKey, importPublicKey } from './signing-key-material.js';
import type { SigningKeyRecord, SigningKeyStore } from './signing-key-store.js';

export interface KeyRingOptions {
  store: SigningKeyStore;
  keyEncryptionKey: Buffer;
  accessTokenTtlSeconds: number;
  /** How often every replica re-reads the keys, to pick up a rotation made elsewhere. */
  reloadIntervalMs: number;
  log: Logger;
}

export interface ActiveSigningKey {
  kid: string;
  privateKey: CryptoKey;
}

interface PublishedKey {
  record: SigningKeyRecord;
  publicKey: CryptoKey;
}

/** Every replica re-reads the signing keys this often (docs/tokens.md #8). */
export const KEY_RELOAD_INTERVAL_MS = 60_000;

// An unknown kid triggers at most one early reload per this interval (a rotation elsewhere).
const UNKNOWN_KID_RELOAD_MS = 5_000;

/**
 * The signing keys held in memory (ARCHITECTURE.md "Data and secrets"). The active key signs;
 * it and every retired key still published verify and appear in the JWKS. Replicas reload
 * periodically, so rotateSigningKey on any replica reaches all of them without a restart.
 */
export class KeyRing {
  private published = new Map<string, PublishedKey>();
  private active: ActiveSigningKey | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastUnknownKidReload = 0;

  private constructor(private readonly options: KeyRingOptions) {}

  /** Creates the first key when none is active (race-safe across replicas), loads, and starts reloading. */
  static async open(options: KeyRingOptions): Promise<KeyRing> {
    const ring = new KeyRing(options);
    const created = await options.store.ensureActive(() => generateSigningKey(options.keyEncryptionKey));
    if (created) options.log.info('created the first signing key');
    await ring.reload();
    ring.timer = setInterval(() => {
      ring.reload().catch((error: unknown) => options.log.warn({ err: error }, 'signing key reload failed'));
    }, options.reloadIntervalMs);
    ring.timer.unref();
    return ring;
  }

  async reload(now = new Date()): Promise<void> {
    const records = await this.options.store.listPublished(now);
    const published = new Map<string, PublishedKey>();
    for (const record of records) {
      const known = this.published.get(record.kid);
      published.set(record.kid, { record, publicKey: known?.publicKey ?? (await importPublicKey(record)) });
    }
    const activeRecord = records.find((record) => record.status === 'active');
    if (!activeRecord) throw new Error('no active signing key');
    if (this.active?.kid !== activeRecord.kid) {
      this.active = {
        kid: activeRecord.kid,
        privateKey: await decryptPrivateKey(this.options.keyEncryptionKey, activeRecord),
      };
    }
    this.published = published;
  }

  signingKey(): ActiveSigningKey {
    if (!this.active) throw new Error('key ring not loaded');
    return this.active;
  }

  /** The public key for `kid`, reloading once if another replica may just have rotated. */
  async verificationKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (kid === undefined) return undefined;
    const known = this.published.get(kid);
    if (known) return known.publicKey;
    if (Date.now() - this.lastUnknownKidReload < UNKNOWN_KID_RELOAD_MS) return undefined;
    this.lastUnknownKidReload = Date.now();
    await this.reload();
    return this.published.get(kid)?.publicKey;
  }

  /** RFC 7517 section 5 JWK Set of the published public keys. */
  jwks(): { keys: JWK[] } {
    return {
      keys: [...this.published.values()].map(({ record }) => ({
        kty: record.publicJwk.kty,
        crv: record.publicJwk.crv,
        x: record.publicJwk.x,
        kid: record.kid,
        alg: 'EdDSA',
        use: 'sig',
      })),
    };
  }

  /**
   * Retires the active key and activates a new one. The retired key stays published for the
   * access-token lifetime plus one reload interval: replicas that have not reloaded yet may
   * still sign with it for that long.
   */
  async rotateSigningKey(now = new Date()): Promise<void> {
    const next = await generateSigningKey(this.options.keyEncryptionKey);
    const graceMs = this.options.accessTokenTtlSeconds * 1000 + this.options.reloadIntervalMs;
    await this.options.store.rotate(next, now, new Date(now.getTime() + graceMs));
    await this.reload(now);
  }

  close(): void {
    clearInterval(this.timer);
  }
}
