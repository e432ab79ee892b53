import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';

/** Longest state and nonce kept (docs/authorization.md #5): both travel back in URLs and tokens. */
export const MAX_OPAQUE_VALUE_LENGTH = 512;

/**
 * RFC 6749 section 4.1.1 (state) and OIDC Core 3.1.2.1 (nonce): opaque values kept as sent,
 * up to MAX_OPAQUE_VALUE_LENGTH characters.
 */
export function checkStateAndNonce(values: TokenParameters): { state?: string; nonce?: string } {
  const state = values.get('state');
  const nonce = values.get('nonce');
  for (const [name, value] of [
    ['state', state],
    ['nonce', nonce],
  ] as const) {
    if (value !== undefined && value.length > MAX_OPAQUE_VALUE_LENGTH) {
      throw new InvalidRequestError({
        message: `${name} is longer than ${MAX_OPAQUE_VALUE_LENGTH} characters`,
      });
    }
  }
  return { ...(state === undefined ? {} : { state }), ...(nonce === undefined ? {} : { nonce }) };
}
