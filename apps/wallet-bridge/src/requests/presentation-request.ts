import { randomBytes } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';

/** What a presentation request is for (docs/wallet.md #2). */
export type Purpose = 'sign_in' | 'link';

/** `status` column values (prisma/schema.prisma). */
export const STATUS = {
  pending: 'pending',
  answered: 'answered',
  declined: 'declined',
  settling: 'settling',
  signedIn: 'signed_in',
  refused: 'refused',
  linked: 'linked',
  conflict: 'conflict',
  rejected: 'rejected',
} as const;

/** 256 bits, base64url: handles, states and nonces are unguessable (docs/wallet.md). */
export function randomIdentifier(): string {
  return randomBytes(32).toString('base64url');
}

const IDENTIFIER = /^[A-Za-z0-9_-]{43}$/;

/** A malformed handle or state is looked up nowhere: it names no request. */
export function isIdentifierShaped(value: string): boolean {
  return IDENTIFIER.test(value);
}

/** The stored form of the browser-binder cookie value; the label keeps it apart from other hashes. */
export function binderHash(secretHashKey: Buffer, binder: string): string {
  return keyedHash(secretHashKey, `wallet-binder:${binder}`);
}

/**
 * An answer that landed in time may still be read a little after the expiry (the browser polls
 * every few seconds); later it is expired like an unanswered one, and its vp_token is swept.
 */
export const SETTLE_GRACE_MS = 60_000;

export function isPastSettling(request: { expiresAt: Date }, now = Date.now()): boolean {
  return request.expiresAt.getTime() + SETTLE_GRACE_MS <= now;
}
