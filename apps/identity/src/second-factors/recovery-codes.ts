import { randomInt } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';

/** docs/strong-authentication.md #4: ten codes, each 10 characters of a 31-character alphabet without look-alikes (about 49 bits). */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < GROUP * 2; index += 1) {
    if (index === GROUP) code += '-';
    code += ALPHABET[randomInt(ALPHABET.length)];
  }
  return code;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** Case, spaces and the hyphen do not matter when a code is typed back. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** What is stored: a keyed hash bound to the user (docs/decisions.md #5). */
export function recoveryCodeHash(secretHashKey: Buffer, userId: string, code: string): string {
  return keyedHash(secretHashKey, `recovery-code:${userId}:${normalizeRecoveryCode(code)}`);
}

/** A recovery code's shape, as typed: 10 letters or digits, optionally split by a hyphen. */
export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normalizeRecoveryCode(code));
}
