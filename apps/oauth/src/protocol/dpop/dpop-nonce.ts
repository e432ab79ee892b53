import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * RFC 9449 section 8: server-provided nonces (docs/par-and-dpop.md #9). A nonce is the
 * HMAC-SHA256 of the current time window under SECRET_HASH_KEY, so every replica derives the same
 * one without shared state; it rotates every window, and the previous window's nonce is still
 * accepted so a client that just learnt it is not turned away at the boundary.
 */
export const DPOP_NONCE_WINDOW_SECONDS = 300;

export function currentDpopNonce(secret: Buffer, now = Date.now()): string {
  return nonceOfWindow(secret, windowOf(now));
}

/** Whether `nonce` is this window's or the previous one's; compared in constant time. */
export function isFreshDpopNonce(secret: Buffer, nonce: string, now = Date.now()): boolean {
  const window = windowOf(now);
  const presented = Buffer.from(nonce);
  return [window, window - 1].some((candidate) => {
    const expected = Buffer.from(nonceOfWindow(secret, candidate));
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
}

function windowOf(now: number): number {
  return Math.floor(now / 1000 / DPOP_NONCE_WINDOW_SECONDS);
}

function nonceOfWindow(secret: Buffer, window: number): string {
  return createHmac('sha256', secret).update(`dpop-nonce:${window}`).digest('base64url');
}
