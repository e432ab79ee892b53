import { mintAccessToken } from '../access-token/access-token.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { IssuedTokens, StoredAuthorizationCode } from './authorization-code-store.js';
import { mintIdToken } from '../id-token/id-token.js';
import type { IdentityUser } from '../identity-port.js';
import { createRefreshToken } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import type { TokenSet } from '../token/token-set.js';
import { tokenTypeOf, type DpopBinding } from '../dpop/dpop-binding.js';

export interface CodeTokens {
  tokens: TokenSet;
  /** What to record on the code, and revoke should it be used again. */
  issued: IssuedTokens;
}

type Deps = Pick<Registry, 'keys' | 'config' | 'refreshTokens'>;

/**
 * What token issuance reads of a redeemed grant: the code's record, or an approved device
 * authorization's (docs/device-grant.md #9), so both flows issue the same tokens and the same
 * session-derived ID token claims.
 */
export type CodeGrantRecord = Pick<
  StoredAuthorizationCode,
  'userId' | 'clientId' | 'sessionId' | 'consentId' | 'scope' | 'resources' | 'nonce' | 'authTime' | 'amr'
>;

/**
 * What a redeemed code yields (interface.md 4.3 token response): an access token with the user's
 * claims and session; a refresh token in a new family bound to the consent only when the
 * client holds the refresh_token grant (docs/decisions.md #7); an ID token only when `openid` was
 * granted.
 */
export async function issueCodeTokens(
  deps: Deps,
  client: AuthenticatedClient,
  code: CodeGrantRecord,
  user: IdentityUser,
  audience: string | string[],
  now: Date,
  dpop?: DpopBinding,
): Promise<CodeTokens> {
  const scope = parseScope(code.scope);
  const accessToken = await mintAccessToken(
    deps,
    {
      sub: user.id,
      clientId: client.clientId,
      audience,
      scope,
      user: { email: user.email, emailVerified: user.emailVerified },
      sid: code.sessionId,
      ...(dpop ? { dpopJkt: dpop.jkt } : {}),
      authentication: { amr: code.amr, authTime: code.authTime },
    },
    now.getTime(),
  );
  // RFC 9449 section 5: a public client's refresh tokens are bound to its key; a confidential
  // client's are already bound to its credentials (docs/par-and-dpop.md #10).
  const familyKey = client.method === 'none' ? dpop?.jkt : undefined;
  const refresh = client.grantTypes.includes('refresh_token')
    ? await openFamily(deps, code, createRefreshToken(deps, accessToken, now), familyKey)
    : undefined;
  const idToken = scope.includes('openid')
    ? await mintIdToken(
        deps,
        {
          user,
          clientId: client.clientId,
          authTime: code.authTime,
          sessionId: code.sessionId,
          amr: code.amr,
          ...(code.nonce === undefined ? {} : { nonce: code.nonce }),
          scope,
          signingAlg: client.idTokenSignedResponseAlg,
        },
        now.getTime(),
      )
    : undefined;
  return {
    tokens: {
      accessToken: accessToken.token,
      ...(refresh ? { refreshToken: refresh.token } : {}),
      ...(idToken ? { idToken } : {}),
      expiresIn: accessToken.expiresIn,
      tokenType: tokenTypeOf(dpop),
      ...(scope.length > 0 ? { scope: code.scope } : {}),
    },
    issued: {
      ...(refresh ? { refreshFamilyId: refresh.familyId } : {}),
      accessToken: { jti: accessToken.jti, expiresAt: accessToken.expiresAt },
    },
  };
}

async function openFamily(
  deps: Deps,
  code: CodeGrantRecord,
  first: ReturnType<typeof createRefreshToken>,
  dpopJkt: string | undefined,
): Promise<{ token: string; familyId: string }> {
  const familyId = await deps.refreshTokens.openFamily(
    {
      userId: code.userId,
      clientId: code.clientId,
      sessionId: code.sessionId,
      scope: code.scope,
      resources: code.resources,
      consentId: code.consentId,
      ...(dpopJkt ? { dpopJkt } : {}),
      amr: code.amr,
      authTime: code.authTime,
    },
    first.stored,
  );
  return { token: first.token, familyId };
}
