import { randomBytes } from 'node:crypto';
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
});
