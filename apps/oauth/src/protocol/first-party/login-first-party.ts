import { mintAccessToken } from '../access-token/access-token.js';
import { FIRST_PARTY_CLIENT } from './first-party-client.js';
import type { RequestOrigin } from '../identity-port.js';
import { createRefreshToken } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import type { TokenSet } from '../token/token-set.js';

export interface LoginFirstPartyRequest {
  email: string;
  password: string;
  origin: RequestOrigin;
}

/**
 * interface.md 4.2 POST /auth/login (docs/decisions.md #2, #6): identity checks the credentials and opens
 * a session; oauth mints a first-party access token and opens a refresh-token family. No
 * scope is requested, so none is granted (docs/decisions.md #8), and no ID token is issued.
 */
export async function loginFirstParty(deps: Registry, request: LoginFirstPartyRequest): Promise<TokenSet> {
  const { user, sessionId } = await deps.identity.checkCredentials(request);
  const now = new Date();
  const accessToken = await mintAccessToken(
    deps,
    {
      sub: user.id,
      clientId: FIRST_PARTY_CLIENT.clientId,
      audience: FIRST_PARTY_CLIENT.audience,
      scope: [],
      user: { email: user.email, emailVerified: user.emailVerified },
      sid: sessionId,
    },
    now.getTime(),
  );
  const refreshToken = createRefreshToken(deps, accessToken, now);
  await deps.refreshTokens.openFamily(
    {
      userId: user.id,
      clientId: FIRST_PARTY_CLIENT.clientId,
      sessionId,
      scope: '',
      resources: [],
      consentId: null,
    },
    refreshToken.stored,
  );
  return {
    accessToken: accessToken.token,
    refreshToken: refreshToken.token,
    expiresIn: accessToken.expiresIn,
    tokenType: 'Bearer',
  };
}
