import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { currentDpopNonce, DPOP_NONCE_WINDOW_SECONDS, isFreshDpopNonce } from './dpop-nonce.js';

const secret = randomBytes(32);
const window = DPOP_NONCE_WINDOW_SECONDS * 1000;
const start = 1_800_000_000_000 - (1_800_000_000_000 % window);

describe('DPoP nonces (RFC 9449 section 8, docs/par-and-dpop.md #9)', () => {
  it('stays the same within a window and rotates at its end', () => {
    const nonce = currentDpopNonce(secret, start);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(currentDpopNonce(secret, start + window - 1)).toBe(nonce);
    expect(currentDpopNonce(secret, start + window)).not.toBe(nonce);
  });

  it("accepts this window's nonce and the previous one's, nothing older", () => {
    const nonce = currentDpopNonce(secret, start);
    expect(isFreshDpopNonce(secret, nonce, start + 1)).toBe(true);
    expect(isFreshDpopNonce(secret, nonce, start + window + 1)).toBe(true);
    expect(isFreshDpopNonce(secret, nonce, start + 2 * window + 1)).toBe(false);
  });

  it('is derived from the secret, so every replica with it agrees and nobody else can mint one', () => {
    expect(currentDpopNonce(Buffer.from(secret), start)).toBe(currentDpopNonce(secret, start));
    const other = currentDpopNonce(randomBytes(32), start);
    expect(isFreshDpopNonce(secret, other, start)).toBe(false);
    expect(isFreshDpopNonce(secret, 'short', start)).toBe(false);
  });

  it('answers, across windows visited back and forth, the HMAC of each window', () => {
    const times = [0, 1, 2, 3, 1, 0, 7, 2].map((n) => start + n * window);
    const hmacOf = (now: number) =>
      createHmac('sha256', secret)
        .update(`dpop-nonce:${Math.floor(now / 1000 / DPOP_NONCE_WINDOW_SECONDS)}`)
        .digest('base64url');
    for (let pass = 0; pass < 2; pass += 1) {
      expect(times.map((now) => currentDpopNonce(secret, now))).toEqual(times.map(hmacOf));
    }
  });
});
