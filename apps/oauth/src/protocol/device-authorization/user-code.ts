import { randomInt } from 'node:crypto';

/**
 * RFC 8628 section 6.1: consonants only (no vowels spell words, no 0/O or 1/I to confuse),
 * uppercase, so a person types it easily on another device (docs/device-grant.md #2).
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A fresh user code, shown as XXXX-XXXX: 20^8 (about 2^34.6) values. */
export function newUserCode(): string {
  let code = '';
  for (let index = 0; index < USER_CODE_LENGTH; index += 1) {
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  }
  return formatUserCode(code);
}

export function formatUserCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

/**
 * RFC 8628 section 6.1: case and dashes (and spaces) do not matter to the person typing. The
 * 8 characters of the alphabet, or undefined for anything that cannot be a user code.
 */
export function normalizeUserCode(typed: string): string | undefined {
  if (typed.length > 32) return undefined;
  const normalized = typed.toUpperCase().replace(/[-\s]/g, '');
  if (normalized.length !== USER_CODE_LENGTH) return undefined;
  return [...normalized].every((character) => USER_CODE_ALPHABET.includes(character))
    ? normalized
    : undefined;
}
