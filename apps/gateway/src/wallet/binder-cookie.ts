import type { FastifyRequest } from 'fastify';
import { requestCookies } from '../http/cookies.js';

/**
 * The browser-binder cookie (docs/wallet.md #3): set when a wallet flow starts and
 * required to read its outcome, so a handle seen elsewhere (a shoulder-surfed QR code, a
 * forwarded link) is useless without the browser that started the flow. `__Host-` keeps it
 * host-only with Path=/ and Secure (docs/decisions.md #18); Lax lets the wallet's redirect back in.
 */
export const BINDER_COOKIE = '__Host-service_wallet_binder';

export function binderCookie(binder: string, expiresAtMs: bigint): string {
  const maxAge = Math.max(0, Math.ceil((Number(expiresAtMs) - Date.now()) / 1000));
  return `${BINDER_COOKIE}=${binder}; Max-Age=${maxAge}; Path=/; Secure; HttpOnly; SameSite=Lax`;
}

export function binderOf(request: FastifyRequest): string {
  return requestCookies(request)[BINDER_COOKIE] ?? '';
}
