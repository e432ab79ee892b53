import { UnauthorizedError } from '@authz/shared/errors';
import { errors, type JWTPayload } from 'jose';
import { checkJwtClaims } from '../../keys/jwt-claims.js';
import { FIRST_PARTY_CLIENT_ID } from '../first-party/first-party-client.js';
import type { PresentedDpopProof } from '../dpop/dpop-binding.js';
import { checkResourcePresentation } from '../dpop/check-resource-proof.js';
import type { Registry } from '../../registry.js';
import { isCutOff } from './deny-list.js';

export interface VerifiedAccessToken {
  sub: string;
  clientId: string;
  scope: string;
  jti: string;
  /** Epoch seconds. */
  exp: number;
  sid?: string;
  email?: string;
  hasAct: boolean;
}

export interface VerifyOptions {
  /** docs/decisions.md #3: first-party client, user sub, no act. */
  requireFirstPartyUser: boolean;
  /** RFC 9449 section 7: the proof of a token sent with the DPoP scheme; absent for Bearer. */
  dpop?: PresentedDpopProof;
}

type Deps = Pick<Registry, 'accessTokenSignatures' | 'config' | 'denyList'>;

/**
 * Why a token was refused, for the one caller allowed to say it: UserInfo's invalid_token
 * (RFC 6750 section 3.1, docs/errors.md "What a client is told"). `expired` and `revoked` are
 * only ever reported for a token whose signature verified.
 */
export type AccessTokenRefusal = 'expired' | 'revoked' | 'invalid';

export class AccessTokenRefusedError extends UnauthorizedError {
  constructor(
    readonly refusal: AccessTokenRefusal,
    detail: string,
  ) {
    super({ detail });
  }
}

/**
 * RFC 9068 section 4: signature with one of our keys, typ at+jwt, iss, exp; then the
 * deny-list (interface.md 2.5). Every failure is the same UnauthorizedError; the reason goes to
 * `detail`, which only reaches the logs.
 */
export async function verifyAccessToken(
  deps: Deps & Pick<Registry, 'dpopJtis'>,
  token: string,
  options: VerifyOptions,
): Promise<VerifiedAccessToken> {
  const { payload, claims } = await verifyLiveAccessToken(deps, token);
  await checkResourcePresentation(deps, token, payload, options.dpop);
  if (options.requireFirstPartyUser) checkFirstPartyUser(payload, claims);
  return claims;
}

/** A token that passed every check but the caller's own: its claims and the whole payload. */
export interface LiveAccessTokenClaims {
  payload: JWTPayload;
  claims: VerifiedAccessToken;
}

/** Signature, typ, iss, exp and the deny-list, for callers that judge the rest themselves. */
export async function verifyLiveAccessToken(deps: Deps, token: string): Promise<LiveAccessTokenClaims> {
  const payload = await verifySignedClaims(deps, token);
  const claims = readClaims(payload);
  const { denied, cutOff } = await deps.denyList.standing(claims.jti, claims.sub);
  if (denied) refuse('access token is on the deny-list', 'revoked');
  // docs/tokens.md #31: a password reset or change denies the user's earlier tokens at once.
  if (isCutOff(cutOff, Number(payload.iat), claims.sid)) {
    refuse('access token issued before the user cut-off', 'revoked');
  }
  return { payload, claims };
}

async function verifySignedClaims(
  { accessTokenSignatures, config }: Deps,
  token: string,
): Promise<JWTPayload> {
  try {
    const { header, payload } = await accessTokenSignatures.verify(token);
    checkJwtClaims(header, payload, {
      issuer: config.issuer,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id'],
    });
    return payload;
  } catch (error) {
    // The signature is checked before the claims, so JWTExpired means a genuine, expired token.
    if (error instanceof errors.JWTExpired) refuse(`access token rejected: ${error.code}`, 'expired');
    if (error instanceof errors.JOSEError) refuse(`access token rejected: ${error.code}`);
    throw error;
  }
}

function readClaims(payload: JWTPayload): VerifiedAccessToken {
  const { sub, jti, exp, client_id: clientId, scope, sid, email } = payload;
  if (typeof sub !== 'string' || typeof jti !== 'string' || typeof clientId !== 'string' || !exp) {
    refuse('access token claims of the wrong type');
  }
  return {
    sub,
    clientId,
    jti,
    exp,
    scope: typeof scope === 'string' ? scope : '',
    ...(typeof sid === 'string' ? { sid } : {}),
    ...(typeof email === 'string' ? { email } : {}),
    hasAct: payload.act !== undefined,
  };
}

// docs/decisions.md #3: only first-party user tokens without act reach the developer API and logout.
function checkFirstPartyUser(payload: JWTPayload, claims: VerifiedAccessToken): void {
  if (claims.clientId !== FIRST_PARTY_CLIENT_ID) refuse('not a first-party token');
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audience.includes(FIRST_PARTY_CLIENT_ID)) refuse('not addressed to the first-party client');
  if (claims.sub === claims.clientId) refuse('not a user token');
  if (claims.hasAct) refuse('delegated token (act)');
}

function refuse(detail: string, refusal: AccessTokenRefusal = 'invalid'): never {
  throw new AccessTokenRefusedError(refusal, detail);
}
