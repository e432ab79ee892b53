import { signCompactJws, signRs256CompactJws } from '../../keys/compact-jws.js';
import type { SigningAlg } from '../../keys/signing-key-store.js';
import { authenticationClaims } from '../authentication-context/authentication-claims.js';
import type { IdentityUser } from '../identity-port.js';
import type { Registry } from '../../registry.js';

export interface IdTokenSubject {
  user: IdentityUser;
  clientId: string;
  /** Epoch seconds of the authentication (OIDC Core 2 auth_time). */
  authTime: number;
  /** The identity session's public id (interface.md 4.3: the `sid` claim), never its cookie value. */
  sessionId: string;
  /** RFC 8176 methods of that authentication; the acr follows from them (docs/strong-authentication.md #5). */
  amr: readonly string[];
  nonce?: string;
  scope: readonly string[];
  /** The client's id_token_signed_response_alg (OIDC Dynamic Registration 2); EdDSA by default. */
  signingAlg?: SigningAlg;
}

/**
 * OIDC Core 2 and 3.1.3.6, interface.md 2.5: an EdDSA JWT (docs/decisions.md #11), or RS256 for a
 * client registered for it (docs/tokens.md #34), signed with the active key of that algorithm, aud the client id, the access token's lifetime; auth_time always and sid always
 * (docs/authorization.md #14, interface.md 4.3). name whenever the user has one (not
 * scope-gated, interface.md 2.5); email and email_verified only under the email scope, from the
 * account itself (docs/authorization.md #14).
 */
export async function mintIdToken(
  { keys, config }: Pick<Registry, 'keys' | 'config'>,
  subject: IdTokenSubject,
  now = Date.now(),
): Promise<string> {
  const alg = subject.signingAlg ?? 'EdDSA';
  const { kid, privateKey } = keys.signingKey(now, alg);
  const iat = Math.floor(now / 1000);
  const { user } = subject;
  const claims = {
    auth_time: subject.authTime,
    // OIDC Back-Channel Logout 1.0 section 2.1: the session a logout token will name.
    sid: subject.sessionId,
    ...authenticationClaims(subject.amr),
    ...(subject.nonce === undefined ? {} : { nonce: subject.nonce }),
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(subject.scope.includes('email') ? { email: user.email, email_verified: user.emailVerified } : {}),
    iss: config.issuer,
    sub: user.id,
    aud: subject.clientId,
    iat,
    exp: iat + config.accessTokenTtlSeconds,
  };
  return alg === 'RS256'
    ? signRs256CompactJws({ alg, typ: 'JWT', kid }, claims, privateKey)
    : signCompactJws({ alg, typ: 'JWT', kid }, claims, privateKey);
}
