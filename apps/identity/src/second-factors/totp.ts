import { decryptWithKey, encryptWithKey } from '@authz/shared/crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 parameters every authenticator app reads (docs/strong-authentication.md #2). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** RFC 6238 section 5.2: one step either side absorbs clock drift and typing time. */
const WINDOW_STEPS = 1;
const SIX_DIGITS = /^\d{6}$/;

function totpOf(secretBase32: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226 section 4 recommends 160 bits), base32 without padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth://totp/ URI of the QR code: issuer = the host of JWT_ISSUER, label = the address. */
export function otpauthUri(secretBase32: string, issuer: string, email: string): string {
  return totpOf(secretBase32, new URL(issuer).host, email).toString();
}

/** AES-256-GCM under KEY_ENCRYPTION_KEY, bound to the user id (docs/strong-authentication.md #2). */
export function sealTotpSecret(key: Buffer, userId: string, secretBase32: string): string {
  return encryptWithKey(key, Buffer.from(secretBase32, 'utf8'), `totp:${userId}`);
}

export function openTotpSecret(key: Buffer, userId: string, sealed: string): string {
  return decryptWithKey(key, sealed, `totp:${userId}`).toString('utf8');
}

/**
 * The time step a code belongs to when it is valid at `now` within ±1 step, else undefined.
 * The caller accepts it only when the step is later than the last accepted one, so each code
 * works once (RFC 6238 section 5.2).
 */
export function matchingTotpStep(secretBase32: string, code: string, now: number): number | undefined {
  if (!SIX_DIGITS.test(code)) return undefined;
  const delta = totpOf(secretBase32, 'authz', 'authz').validate({
    token: code,
    timestamp: now,
    window: WINDOW_STEPS,
  });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
