import { randomUUID } from 'node:crypto';
import { signCompactJws } from '../../keys/compact-jws.js';
import { authenticationClaims } from '../authentication-context/authentication-claims.js';
import type { Actor } from '../delegation/actor.js';
import type { Registry } from '../../registry.js';

export interface AccessTokenSubject {
  sub: string;
  clientId: string;
  audience: string | string[];
  scope: readonly string[];
  /** User-context tokens only (interface.md 2.5). */
  user?: { email: string; emailVerified: boolean };
  /** The identity session, for logout (docs/decisions.md #3). */
  sid?: string;
  /**
   * How and when the user authenticated: RFC 9068 section 2.2.1 acr, amr and auth_time, so that
   * introspection can answer them (docs/strong-authentication.md #13).
   */
  authentication?: { amr: readonly string[]; authTime: number };
  /** RFC 8693 section 4.1: the acting party of a delegated token (docs/agents.md). */
  act?: Actor;
  /** Epoch seconds the token may not outlive (token exchange never extends, docs/decisions.md #12). */
  notAfter?: number;
  /** RFC 9449 section 6.1: the DPoP key thumbprint the token is bound to (cnf.jkt). */
  dpopJkt?: string;
}

export interface MintedAccessToken {
  token: string;
  jti: string;
  /** Epoch seconds. */
  expiresAt: number;
  expiresIn: number;
}

/** RFC 9068 JWT access token, EdDSA-signed with the active key (docs/decisions.md #11). */
export async function mintAccessToken(
  { keys, config }: Pick<Registry, 'keys' | 'config'>,
  subject: AccessTokenSubject,
  now = Date.now(),
): Promise<MintedAccessToken> {
  const { kid, privateKey } = keys.signingKey(now);
  const iat = Math.floor(now / 1000);
  const expiresAt = Math.min(iat + config.accessTokenTtlSeconds, subject.notAfter ?? Infinity);
  const jti = randomUUID();
  const claims = {
    client_id: subject.clientId,
    // docs/decisions.md #8: no scope granted, no scope claim.
    ...(subject.scope.length > 0 ? { scope: subject.scope.join(' ') } : {}),
    ...(subject.user ? { email: subject.user.email, email_verified: subject.user.emailVerified } : {}),
    ...(subject.sid ? { sid: subject.sid } : {}),
    ...(subject.authentication
      ? { ...authenticationClaims(subject.authentication.amr), auth_time: subject.authentication.authTime }
      : {}),
    ...(subject.act ? { act: subject.act } : {}),
    ...(subject.dpopJkt ? { cnf: { jkt: subject.dpopJkt } } : {}),
    iss: config.issuer,
    sub: subject.sub,
    aud: subject.audience,
    iat,
    exp: expiresAt,
    jti,
  };
  // RFC 9068 section 2.1: typ "at+jwt".
  const token = await signCompactJws({ alg: 'EdDSA', typ: 'at+jwt', kid }, claims, privateKey);
  return { token, jti, expiresAt, expiresIn: expiresAt - iat };
}
