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

// Every DPoP request asks for this window's nonce up to three times (checking the proof's,
// then announcing it): each secret's recent windows are kept, so the HMAC runs once a window.
const recentNonces = new WeakMap<Buffer, Map<number, string>>();
const WINDOWS_KEPT = 3;

function nonceOfWindow(secret: Buffer, window: number): string {
  let windows = recentNonces.get(secret);
  if (windows === undefined) recentNonces.set(secret, (windows = new Map()));
  let nonce = windows.get(window);
  if (nonce === undefined) {
    nonce = createHmac('sha256', secret).update(`dpop-nonce:${window}`).digest('base64url');
    if (windows.size >= WINDOWS_KEPT) windows.delete(windows.keys().next().value!);
    windows.set(window, nonce);
  }
  return nonce;
}
