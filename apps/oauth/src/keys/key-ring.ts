import type { KeyObject } from 'node:crypto';
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
  privateKey: KeyObject;
}

interface Signer {
  key: ActiveSigningKey;
  activatesAt: Date | null;
}

interface PublishedKey {
  record: SigningKeyRecord;
  publicKey: CryptoKey;
}

// An unknown kid triggers at most one early reload per this interval (a rotation elsewhere).
const UNKNOWN_KID_RELOAD_MS = 5_000;

/**
 * The signing keys held in memory (docs/architecture.md "Data and secrets"). The active key signs;
 * it and every retired key still published verify and appear in the JWKS. Replicas reload
 * periodically, so rotateSigningKey on any replica reaches all of them without a restart.
 */
export class KeyRing {
  private published = new Map<string, PublishedKey>();
  /** The active key, which may not sign before its activation time. */
  private incoming: Signer | undefined;
  /** The key being rotated out, while the incoming one waits to activate. */
  private outgoing: Signer | undefined;
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
    this.incoming = await this.signerFor(activeRecord);
    // Until a rotated-in key activates, the key it replaces keeps signing (docs/tokens.md #7).
    const outgoing = records.find(
      (record) => record.status === 'retired' && record.retiredAt !== null && record.retiredAt > now,
    );
    this.outgoing = outgoing && activeRecord.activatesAt ? await this.signerFor(outgoing) : undefined;
    this.published = published;
  }

  /** The key that signs now: the active one, or the outgoing one until the active one activates. */
  signingKey(now = Date.now()): ActiveSigningKey {
    if (!this.incoming) throw new Error('key ring not loaded');
    const activatesAt = this.incoming.activatesAt?.getTime() ?? 0;
    return this.outgoing && now < activatesAt ? this.outgoing.key : this.incoming.key;
  }

  private async signerFor(record: SigningKeyRecord): Promise<Signer> {
    const current = [this.incoming, this.outgoing].find((signer) => signer?.key.kid === record.kid);
    const key = current?.key ?? {
      kid: record.kid,
      privateKey: decryptPrivateKey(this.options.keyEncryptionKey, record),
    };
    return { key, activatesAt: record.activatesAt };
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
   * Two-phase rotation: the new key is published at once but signs only one reload interval
   * later, by which time every replica has reloaded and serves it in its JWKS, so no resource
   * server ever meets a kid the JWKS does not list yet. The outgoing key signs until then and
   * stays published for the access-token lifetime plus one more reload interval after it.
   */
  async rotateSigningKey(now = new Date()): Promise<{ kid: string; activatesAt: Date }> {
    const next = await generateSigningKey(this.options.keyEncryptionKey);
    const { reloadIntervalMs, accessTokenTtlSeconds } = this.options;
    const activatesAt = new Date(now.getTime() + reloadIntervalMs);
    const publishUntil = new Date(activatesAt.getTime() + accessTokenTtlSeconds * 1000 + reloadIntervalMs);
    await this.options.store.rotate(next, activatesAt, publishUntil);
    await this.reload(now);
    return { kid: next.kid, activatesAt };
  }

  close(): void {
    clearInterval(this.timer);
  }
}
