import { KeyObject } from 'node:crypto';
import type { Logger } from '@authz/shared/logger';
import type { CryptoKey, JWK } from 'jose';
import { decryptPrivateKey, generateSigningKey, importPublicKey } from './signing-key-material.js';
import {
  SIGNING_ALGS,
  type SigningAlg,
  type SigningKeyRecord,
  type SigningKeyStore,
} from './signing-key-store.js';

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
  alg: SigningAlg;
  privateKey: KeyObject;
}

/** A published key's life: signing from `activatesAt`, until `retiresAt`, listed until `publishedUntil`. */
export interface PublishedSigningKey {
  kid: string;
  alg: SigningAlg;
  createdAt: Date;
  activatesAt: Date;
  retiresAt: Date | null;
  publishedUntil: Date | null;
}

interface Signer {
  key: ActiveSigningKey;
  activatesAt: Date | null;
}

/** Per algorithm: the active key, and the key being rotated out while the active one waits. */
interface Signers {
  incoming: Signer;
  outgoing: Signer | undefined;
}

interface PublishedKey {
  record: SigningKeyRecord;
  publicKey: CryptoKey;
  /** The same key for node:crypto's synchronous verify (verify-compact-jws.ts). */
  publicKeyObject: KeyObject;
}

// An unknown kid triggers at most one early reload per this interval (a rotation elsewhere).
const UNKNOWN_KID_RELOAD_MS = 5_000;

/**
 * The signing keys held in memory (docs/architecture.md "Data and secrets"), one active key per
 * algorithm (docs/tokens.md #34). The active key signs; it and every retired key still published
 * verify and appear in the JWKS. Replicas reload periodically, so rotateSigningKey on any replica
 * reaches all of them without a restart.
 */
export class KeyRing {
  private published = new Map<string, PublishedKey>();
  private signers = new Map<SigningAlg, Signers>();
  private timer: NodeJS.Timeout | undefined;
  private lastUnknownKidReload = 0;

  private constructor(private readonly options: KeyRingOptions) {}

  /** Creates the first key when none is active (race-safe across replicas), loads, and starts reloading. */
  static async open(options: KeyRingOptions): Promise<KeyRing> {
    const ring = new KeyRing(options);
    for (const alg of SIGNING_ALGS) {
      const created = await options.store.ensureActive(alg, () =>
        generateSigningKey(options.keyEncryptionKey, alg),
      );
      if (created) options.log.info({ alg }, 'created the first signing key');
    }
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
      const publicKey = known?.publicKey ?? (await importPublicKey(record));
      published.set(record.kid, {
        record,
        publicKey,
        publicKeyObject: known?.publicKeyObject ?? KeyObject.from(publicKey),
      });
    }
    const signers = new Map<SigningAlg, Signers>();
    for (const alg of SIGNING_ALGS) {
      const ofAlg = records.filter((record) => record.alg === alg);
      const activeRecord = ofAlg.find((record) => record.status === 'active');
      if (!activeRecord) throw new Error(`no active ${alg} signing key`);
      // Until a rotated-in key activates, the key it replaces keeps signing (docs/tokens.md #7).
      const outgoing = ofAlg.find(
        (record) => record.status === 'retired' && record.retiredAt !== null && record.retiredAt > now,
      );
      signers.set(alg, {
        incoming: this.signerFor(activeRecord),
        outgoing: outgoing && activeRecord.activatesAt ? this.signerFor(outgoing) : undefined,
      });
    }
    this.signers = signers;
    this.published = published;
  }

  /**
   * The key of `alg` that signs now: the active one, or the outgoing one until the active one
   * activates. EdDSA unless a client registered RS256 ID tokens (docs/tokens.md #34).
   */
  signingKey(now = Date.now(), alg: SigningAlg = 'EdDSA'): ActiveSigningKey {
    const signers = this.signers.get(alg);
    if (!signers) throw new Error('key ring not loaded');
    const activatesAt = signers.incoming.activatesAt?.getTime() ?? 0;
    return signers.outgoing && now < activatesAt ? signers.outgoing.key : signers.incoming.key;
  }

  private signerFor(record: SigningKeyRecord): Signer {
    const current = [...this.signers.values()]
      .flatMap((signers) => [signers.incoming, signers.outgoing])
      .find((signer) => signer?.key.kid === record.kid);
    const key = current?.key ?? {
      kid: record.kid,
      alg: record.alg,
      privateKey: decryptPrivateKey(this.options.keyEncryptionKey, record),
    };
    return { key, activatesAt: record.activatesAt };
  }

  /**
   * The public key for `kid` when it is a key of `alg`, reloading once if another replica may
   * just have rotated. The algorithm is part of the lookup so that an RS256 key, which signs
   * only ID tokens, never verifies an access token (docs/tokens.md #34).
   */
  async verificationKey(kid: string | undefined, alg: SigningAlg = 'EdDSA'): Promise<CryptoKey | undefined> {
    if (kid === undefined) return undefined;
    let known = this.published.get(kid);
    if (!known && Date.now() - this.lastUnknownKidReload >= UNKNOWN_KID_RELOAD_MS) {
      this.lastUnknownKidReload = Date.now();
      await this.reload();
      known = this.published.get(kid);
    }
    return known?.record.alg === alg ? known.publicKey : undefined;
  }

  /** As `verificationKey`, for node:crypto (verify-compact-jws.ts). */
  async verificationKeyObject(
    kid: string | undefined,
    alg: SigningAlg = 'EdDSA',
  ): Promise<KeyObject | undefined> {
    if ((await this.verificationKey(kid, alg)) === undefined) return undefined;
    return this.published.get(kid!)?.publicKeyObject;
  }

  /**
   * Whether `kid` is still a published key of `alg`, without reloading: a signature verified
   * earlier under a key since withdrawn no longer counts (verified-token-cache.ts).
   */
  isPublished(kid: string, alg: SigningAlg = 'EdDSA'): boolean {
    return this.published.get(kid)?.record.alg === alg;
  }

  /** RFC 7517 section 5 JWK Set of the published public keys (RFC 8037 OKP, RFC 7518 6.3 RSA). */
  jwks(): { keys: JWK[] } {
    return {
      keys: [...this.published.values()].map(({ record }) => {
        const { kty, crv, x, n, e } = record.publicJwk;
        const material = record.alg === 'RS256' ? { kty, n, e } : { kty, crv, x };
        return { ...material, kid: record.kid, alg: record.alg, use: 'sig' };
      }),
    };
  }

  /**
   * Two-phase rotation: the new key is published at once but signs only one reload interval
   * later, by which time every replica has reloaded and serves it in its JWKS, so no resource
   * server ever meets a kid the JWKS does not list yet. The outgoing key signs until then and
   * stays published for the access-token lifetime plus one more reload interval after it.
   */
  async rotateSigningKey(
    now = new Date(),
  ): Promise<{ kid: string; kids: Record<SigningAlg, string>; activatesAt: Date }> {
    // Every algorithm rotates in the same call and transaction (docs/tokens.md #34).
    const next = await Promise.all(
      SIGNING_ALGS.map((alg) => generateSigningKey(this.options.keyEncryptionKey, alg)),
    );
    const { reloadIntervalMs, accessTokenTtlSeconds } = this.options;
    // Counted from when the keys are stored, not from the call: an RSA key can take a while to
    // generate, and the other replicas need the whole interval to publish the new keys first.
    const storedAt = new Date(Math.max(now.getTime(), Date.now()));
    const activatesAt = new Date(storedAt.getTime() + reloadIntervalMs);
    const publishUntil = new Date(activatesAt.getTime() + accessTokenTtlSeconds * 1000 + reloadIntervalMs);
    await this.options.store.rotate(next, activatesAt, publishUntil);
    await this.reload(storedAt);
    const kids = Object.fromEntries(next.map((key) => [key.alg, key.kid])) as Record<SigningAlg, string>;
    return { kid: kids.EdDSA, kids, activatesAt };
  }

  /**
   * The published keys as the operator API lists them (interface.md 4.15), read from the store
   * rather than memory so that a rotation made on another replica shows at once.
   */
  async listSigningKeys(now = new Date()): Promise<PublishedSigningKey[]> {
    const records = await this.options.store.listPublished(now);
    return records.map((record) => ({
      kid: record.kid,
      alg: record.alg,
      createdAt: record.createdAt,
      activatesAt: record.activatesAt ?? record.createdAt,
      retiresAt: record.status === 'retired' ? record.retiredAt : null,
      publishedUntil: record.status === 'retired' ? record.publishUntil : null,
    }));
  }

  close(): void {
    clearInterval(this.timer);
  }
}
