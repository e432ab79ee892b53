import { compactVerify, errors } from 'jose';
import type { Registry } from '../../registry.js';

/** What a valid id_token_hint tells: who, for which clients, in which session. */
export interface IdTokenHint {
  sub: string;
  aud: string[];
  /** The identity session the ID token was issued in; absent from ID tokens that predate it. */
  sid?: string;
}

/**
 * OIDC RP-Initiated Logout 1.0 section 2: an ID token this server issued, "as a hint about
 * the End-User's current authenticated session". Its signature must be by one of our published
 * keys, `typ` JWT (not an access, logout or other token of ours) with `iss`, `sub`, `aud` and
 * `auth_time` as ID tokens have them. Expiry is not checked: the specification says an expired
 * ID token is still a fine hint, and a retired key stops verifying anyway. Undefined when any
 * check fails.
 */
export async function verifyIdTokenHint(
  { keys, config }: Pick<Registry, 'keys' | 'config'>,
  token: string,
): Promise<IdTokenHint | undefined> {
  let header: { typ?: unknown; alg?: unknown };
  let payload: Uint8Array;
  try {
    ({ protectedHeader: header, payload } = await compactVerify(
      token,
      async ({ kid, alg }) => {
        // ID tokens are EdDSA or, for clients registered for it, RS256 (docs/tokens.md #34).
        const key = await keys.verificationKey(kid, alg === 'RS256' ? 'RS256' : 'EdDSA');
        if (!key) throw new errors.JWKSNoMatchingKey();
        return key;
      },
      { algorithms: ['EdDSA', 'RS256'] },
    ));
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
  if (header.typ !== 'JWT') return undefined;
  return readHint(payload, config.issuer);
}

function readHint(payload: Uint8Array, issuer: string): IdTokenHint | undefined {
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { iss, sub, aud, sid, auth_time: authTime } = claims;
  if (iss !== issuer || typeof sub !== 'string' || typeof authTime !== 'number') return undefined;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : undefined;
  if (!audiences || audiences.length === 0 || audiences.some((value) => typeof value !== 'string')) {
    return undefined;
  }
  return { sub, aud: audiences as string[], ...(typeof sid === 'string' ? { sid } : {}) };
}
