import { mintAccessToken } from '../access-token/access-token.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { IssuedTokens, StoredAuthorizationCode } from './authorization-code-store.js';
import { mintIdToken } from '../id-token/id-token.js';
import type { IdentityUser } from '../identity-port.js';
import { createRefreshToken } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import type { TokenSet } from '../token/token-set.js';

export interface CodeTokens {
  tokens: TokenSet;
  /** What to record on the code, and revoke should it be used again. */
  issued: IssuedTokens;
}

type Deps = Pick<Registry, 'keys' | 'config' | 'refreshTokens'>;

/**
 * What a redeemed code yields (interface.md 4.3 token response): an access token with the user's
 * claims and session; a refresh token in a new family bound to the consent only when the
 * client holds the refresh_token grant (docs/decisions.md #7); an ID token only when `openid` was
 * granted.
 */
export async function issueCodeTokens(
  deps: Deps,
  client: AuthenticatedClient,
  code: StoredAuthorizationCode,
  user: IdentityUser,
  audience: string | string[],
  now: Date,
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
      authentication: { amr: code.amr, authTime: code.authTime },
    },
    now.getTime(),
  );
  const refresh = client.grantTypes.includes('refresh_token')
    ? await openFamily(deps, code, createRefreshToken(deps, accessToken, now))
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
      tokenType: 'Bearer',
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
  code: StoredAuthorizationCode,
  first: ReturnType<typeof createRefreshToken>,
): Promise<{ token: string; familyId: string }> {
  const familyId = await deps.refreshTokens.openFamily(
    {
      userId: code.userId,
      clientId: code.clientId,
      sessionId: code.sessionId,
      scope: code.scope,
      resources: code.resources,
      consentId: code.consentId,
      amr: code.amr,
      authTime: code.authTime,
    },
    first.stored,
  );
  return { token: first.token, familyId };
}
