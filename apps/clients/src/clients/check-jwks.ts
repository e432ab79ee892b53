// docs/decisions.md #16: private_key_jwt clients register `jwks` (RFC 7517 section 5) or `jwksUri`.
// The shape is checked minimally here; keys are parsed where they are used.

export const JWKS_MESSAGE = 'must be a JSON Web Key Set: an object whose keys array holds objects with a kty';
export const JWKS_URI_MESSAGE = 'must be an absolute https URL without a fragment';

export function isJwksShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = (value as { keys?: unknown }).keys;
  return (
    Array.isArray(keys) &&
    keys.length > 0 &&
    keys.every(
      (key) => typeof key === 'object' && key !== null && typeof (key as { kty?: unknown }).kty === 'string',
    )
  );
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https only; loopback http too under the test-only CIMD_ALLOW_INSECURE_LOOPBACK. */
export function isAcceptableJwksUri(value: string, allowInsecureLoopback = false): boolean {
  try {
    const url = new URL(value);
    if (url.hostname === '' || value.includes('#') || url.username || url.password) return false;
    if (url.protocol === 'https:') return true;
    return allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}
