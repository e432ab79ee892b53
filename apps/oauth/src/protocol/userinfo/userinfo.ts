import {
  InsufficientScopeError,
  InvalidBearerTokenError,
  NotFoundError,
  UnauthorizedError,
} from '@authz/shared/errors';
import type { IdentityUserProfile, VerifiedEmail } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import {
  AccessTokenRefusedError,
  verifyLiveAccessToken,
  type AccessTokenRefusal,
  type LiveAccessTokenClaims,
  type VerifiedAccessToken,
} from '../access-token/verify-access-token.js';
import type { PresentedDpopProof } from '../dpop/dpop-binding.js';
import { checkResourcePresentation } from '../dpop/check-resource-proof.js';

/** OIDC Core 5.3.2 (interface.md 4.3): email and emailVerified only together, both or neither. */
export interface UserInfo {
  sub: string;
  email?: string;
  emailVerified?: true;
  /** OIDC Core 5.4: under `profile`, once the user has set one (interface.md 4.10). */
  name?: string;
}

type Deps = Pick<
  Registry,
  'accessTokenSignatures' | 'config' | 'denyList' | 'identity' | 'dpopJtis' | 'clientBudget'
>;

/**
 * OIDC Core 5.3 UserInfo: a live access token of ours (RFC 6750 section 3.1: otherwise
 * invalid_token) granted `openid` (else insufficient_scope), for a user that still exists.
 * Each request with a token that verified counts against the budget of the client the token
 * was issued to (docs/security.md #11); the gateway counts the refused tokens per address.
 */
export async function userInfo(
  deps: Deps,
  accessToken: string,
  dpop?: PresentedDpopProof,
): Promise<UserInfo> {
  const claims = await verifyBearer(deps, accessToken, dpop);
  await deps.clientBudget.consume(claims.clientId);
  if (!parseScope(claims.scope).includes('openid')) {
    throw new InsufficientScopeError({ message: 'The access token was not granted the openid scope' });
  }
  const user = await currentUser(deps, claims.sub);
  const scope = parseScope(claims.scope);
  const email = scope.includes('email') ? mostTrustedEmail(user.verifiedEmails) : undefined;
  return {
    sub: user.id,
    ...(email ? { email: email.email, emailVerified: true } : {}),
    ...(scope.includes('profile') && user.name !== undefined ? { name: user.name } : {}),
  };
}

/** RFC 6750 section 3.1's invalid_token cases, told apart for the client (docs/errors.md). */
const REFUSALS: Record<AccessTokenRefusal, string> = {
  expired: 'The access token has expired',
  revoked: 'The access token has been revoked',
  invalid: 'The access token is malformed or was not issued by this server',
};

// The same checks as VerifyAccessToken (docs/tokens.md #4).
// RFC 9449 section 7: then the way it was presented, Bearer or DPoP with a proof.
async function verifyBearer(
  deps: Deps,
  accessToken: string,
  dpop: PresentedDpopProof | undefined,
): Promise<VerifiedAccessToken> {
  const { payload, claims } = await verifyLive(deps, accessToken);
  await checkResourcePresentation(deps, accessToken, payload, dpop);
  return claims;
}

async function verifyLive(deps: Deps, accessToken: string): Promise<LiveAccessTokenClaims> {
  try {
    return await verifyLiveAccessToken(deps, accessToken);
  } catch (error) {
    if (error instanceof AccessTokenRefusedError) {
      throw new InvalidBearerTokenError({ message: REFUSALS[error.refusal], detail: error.detail });
    }
    if (error instanceof UnauthorizedError) throw new InvalidBearerTokenError({ detail: error.detail });
    throw error;
  }
}

async function currentUser(deps: Deps, userId: string): Promise<IdentityUserProfile> {
  try {
    return await deps.identity.getUser(userId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new InvalidBearerTokenError({ detail: 'no such user' });
    throw error;
  }
}

// interface.md 4.3: the first verified email by trust order wallet, then oidc_*, then self_reported;
// any other source is not trusted for UserInfo (docs/authorization.md #16).
export function mostTrustedEmail(emails: readonly VerifiedEmail[]): VerifiedEmail | undefined {
  return (
    emails.find(({ source }) => source === 'wallet') ??
    emails.find(({ source }) => source.startsWith('oidc_')) ??
    emails.find(({ source }) => source === 'self_reported')
  );
}
