import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  NotFoundError,
} from '@authz/shared/errors';
import { mintAccessToken } from '../access-token/access-token.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { FIRST_PARTY_CLIENT_ID } from '../first-party/first-party-client.js';
import { checkAuthorizedResource } from '../resource/check-authorized-resource.js';
import type { IdentityUser } from '../identity-port.js';
import {
  createRefreshToken,
  hashPresentedRefreshToken,
  revokeRefreshTokenFamily,
} from '../refresh-token/refresh-token-family.js';
import type { StoredRefreshToken } from '../refresh-token/refresh-token-store.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import type { DpopBinding } from '../dpop/dpop-binding.js';
import { tokenTypeOf } from '../dpop/dpop-binding.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';

/**
 * RFC 6749 section 6, with rotation and reuse detection (RFC 9700 section 4.14.2) and the
 * family's RFC 8707 resources (section 2.2).
 */
export const grantType = 'refresh_token';
export const parameters = ['refresh_token', 'scope', 'resource'] as const;

export async function handle(deps: Registry, { client, parameters, dpop }: GrantRequest): Promise<TokenSet> {
  const now = new Date();
  const presented = parameters.get('refresh_token');
  if (presented === undefined) throw new InvalidRequestError({ message: 'Missing refresh_token' });
  const tokenHash = hashPresentedRefreshToken(deps, presented);
  const stored = tokenHash === undefined ? undefined : await deps.refreshTokens.findByHash(tokenHash);
  if (tokenHash === undefined || !stored) throw invalidGrant('unknown or malformed refresh token');
  await checkUsable(deps, stored, now);
  checkClientBinding(stored, client);
  checkKeyBinding(stored, dpop);
  const scope = grantedScope(stored.family.scope, parameters.get('scope'));
  const audience = checkAuthorizedResource(client, stored.family.resources, parameters.getAll('resource'));
  const user = await currentUser(deps, stored);

  const accessToken = await mintAccessToken(
    deps,
    {
      sub: user.id,
      clientId: client.clientId,
      audience,
      scope,
      user: { email: user.email, emailVerified: user.emailVerified },
      ...(stored.family.sessionId ? { sid: stored.family.sessionId } : {}),
      ...(dpop ? { dpopJkt: dpop.jkt } : {}),
      // docs/strong-authentication.md #13: a refresh is no new authentication.
      ...(stored.family.authTime === null || stored.family.authTime === undefined
        ? {}
        : { authentication: { amr: stored.family.amr ?? [], authTime: stored.family.authTime } }),
    },
    now.getTime(),
  );
  const next = createRefreshToken(deps, accessToken, now);
  // The atomic step: of concurrent requests with one token exactly one rotates it.
  if (!(await deps.refreshTokens.rotate(tokenHash, next.stored, now))) {
    await revokeRefreshTokenFamily(deps, stored.familyId, now);
    throw refreshTokenReused('refresh token rotated concurrently: treated as reuse');
  }
  await noteFirstPartySessionUse(deps, stored);
  return {
    accessToken: accessToken.token,
    // docs/decisions.md #7: always a new refresh token, never an ID token.
    refreshToken: next.token,
    expiresIn: accessToken.expiresIn,
    tokenType: tokenTypeOf(dpop),
    ...(scope.length > 0 ? { scope: scope.join(' ') } : {}),
  };
}

// RFC 9700 section 4.14.2: a rotated token presented again means it leaked; revoke the family.
async function checkUsable(deps: Registry, stored: StoredRefreshToken, now: Date): Promise<void> {
  if (stored.family.revokedAt) throw invalidGrant('refresh token family revoked');
  if (stored.rotatedAt) {
    await revokeRefreshTokenFamily(deps, stored.familyId, now);
    deps.log.warn({ familyId: stored.familyId }, 'refresh token reuse: family revoked');
    throw refreshTokenReused('refresh token reused');
  }
  if (stored.expiresAt <= now) {
    throw new InvalidGrantError({
      message: 'The refresh token has expired',
      detail: 'refresh token expired',
    });
  }
}

// RFC 6749 section 6: the refresh token is bound to the client it was issued to.
function checkClientBinding(stored: StoredRefreshToken, client: AuthenticatedClient): void {
  if (stored.family.clientId !== client.clientId) throw invalidGrant('refresh token of another client');
}

// RFC 9449 section 5: a public client's refresh token is bound to the key of the proof it was
// issued with; only a proof of that key refreshes it (docs/par-and-dpop.md #10).
function checkKeyBinding(stored: StoredRefreshToken, dpop: DpopBinding | undefined): void {
  const boundTo = stored.family.dpopJkt;
  if (boundTo && dpop?.jkt !== boundTo) {
    throw new InvalidGrantError({
      message: 'The refresh token is bound to another DPoP key',
      detail: dpop ? 'DPoP key mismatch' : 'DPoP proof missing for a bound refresh token',
    });
  }
}

// RFC 6749 section 6 and docs/decisions.md #8: the scope may narrow, never widen; the family keeps
// its scope, only this access token is narrowed.
function grantedScope(familyScope: string, requested: string | undefined): string[] {
  const granted = parseScope(familyScope);
  if (requested === undefined) return granted;
  const narrowed = parseScope(requested);
  if (!narrowed.every((scope) => granted.includes(scope))) {
    throw new InvalidScopeError({ message: 'The requested scope exceeds the granted scope' });
  }
  return narrowed;
}

// Fresh claims for the new access token; a deleted user ends the family.
async function currentUser(deps: Registry, stored: StoredRefreshToken): Promise<IdentityUser> {
  try {
    return await deps.identity.getUser(stored.family.userId);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await revokeRefreshTokenFamily(deps, stored.familyId);
    throw invalidGrant('user no longer exists');
  }
}

// docs/identity.md #20: a first-party session shows no other sign of use than its refreshes.
// identity coalesces the write; a failure to note it never fails the refresh.
async function noteFirstPartySessionUse(deps: Registry, stored: StoredRefreshToken): Promise<void> {
  const { sessionId, clientId } = stored.family;
  if (clientId !== FIRST_PARTY_CLIENT_ID || !sessionId) return;
  try {
    await deps.accounts.touchSession(sessionId);
  } catch (error) {
    deps.log.warn({ err: error }, 'session use not noted');
  }
}

function invalidGrant(detail: string): InvalidGrantError {
  return new InvalidGrantError({ detail });
}

// docs/errors.md "What a client is told": the holder of a spent token learns that its grant is
// gone (sign the user in again) rather than a bare invalid_grant.
function refreshTokenReused(detail: string): InvalidGrantError {
  return new InvalidGrantError({
    message: 'The refresh token was already used; every token of its grant has been revoked',
    detail,
  });
}
