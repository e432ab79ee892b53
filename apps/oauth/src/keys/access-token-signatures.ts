import type { KeyRing } from './key-ring.js';
import { verifyCompactJws, type VerifiedCompactJws } from './verify-compact-jws.js';

/** Enough for the tokens resource servers present within a few minutes; about 1 KB each. */
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * The signature check of our access tokens (RFC 9068 section 4 step 5: EdDSA under a published
 * key of ours), remembering the tokens whose signature verified (docs/performance.md #20).
 * Resource servers introspect, and clients call UserInfo with, the same token again and again;
 * the signature of a given token under a given key cannot change, so it is checked once. What
 * can change is checked on every use by the callers: exp and the other claims, the deny-list,
 * the user's cut-off; and here, that the key is still published (a withdrawn key's tokens stop
 * verifying at once, cached or not). Only a token whose signature verified is ever remembered,
 * keyed by the whole token, so nothing unverified can be served from here. The oldest entry
 * goes first when full.
 */
export class AccessTokenSignatures {
  private readonly verified = new Map<string, VerifiedCompactJws>();

  constructor(
    private readonly keys: Pick<KeyRing, 'verificationKeyObject' | 'isPublished'>,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  async verify(token: string): Promise<VerifiedCompactJws> {
    const known = this.verified.get(token);
    if (known && typeof known.header.kid === 'string' && this.keys.isPublished(known.header.kid))
      return known;
    if (known) this.verified.delete(token);
    const verified = await verifyCompactJws(token, ['EdDSA'], (header) =>
      this.keys.verificationKeyObject(header.kid),
    );
    this.remember(token, verified);
    return verified;
  }

  private remember(token: string, verified: VerifiedCompactJws): void {
    if (this.verified.size >= this.maxEntries) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, verified);
  }
}
