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
  /** Verified; the starting browser has not decided yet (docs/wallet.md #16). */
  presented: 'presented',
  /** The starting browser cancelled: nothing linked, nobody signed in. */
  cancelled: 'cancelled',
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

/** The stored form of a same-device response code (docs/wallet.md #18), under its own label. */
export function responseCodeHash(secretHashKey: Buffer, responseCode: string): string {
  return keyedHash(secretHashKey, `wallet-response-code:${responseCode}`);
}

/** What the starting browser is shown and asked to confirm (docs/wallet.md #16). */
export interface PresentedCredentialView {
  issuer: string;
  email?: string;
}

/**
 * An answer that landed in time may still be read a little after the expiry (the browser polls
 * every few seconds); later it is expired like an unanswered one, and its vp_token is swept.
 */
export const SETTLE_GRACE_MS = 60_000;

export function isPastSettling(request: { expiresAt: Date }, now = Date.now()): boolean {
  return request.expiresAt.getTime() + SETTLE_GRACE_MS <= now;
}
