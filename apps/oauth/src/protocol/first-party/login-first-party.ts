import { mintAccessToken } from '../access-token/access-token.js';
import { FIRST_PARTY_CLIENT } from './first-party-client.js';
import type { CheckedCredentials, RequestOrigin } from '../identity-port.js';
import { createRefreshToken } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import type { TokenSet } from '../token/token-set.js';

export interface LoginFirstPartyRequest {
  email: string;
  password: string;
  origin: RequestOrigin;
}

export interface CompleteFirstPartyLoginRequest {
  mfaToken: string;
  code: string;
  origin: RequestOrigin;
}

/** Tokens, or the mfa_token of a second step still to come (docs/strong-authentication.md #6). */
export type FirstPartyLogin = { tokens: TokenSet } | { mfaToken: string };

/**
 * interface.md 4.2 POST /auth/login (docs/decisions.md #2, #6): identity checks the credentials and opens
 * a session; oauth mints a first-party access token and opens a refresh-token family. No
 * scope is requested, so none is granted (docs/decisions.md #8), and no ID token is issued.
 * An account with a second factor gets no tokens yet, only the mfa_token identity answered.
 */
export async function loginFirstParty(
  deps: Registry,
  request: LoginFirstPartyRequest,
): Promise<FirstPartyLogin> {
  const checked = await deps.identity.checkCredentials(request);
  if ('mfaToken' in checked) return { mfaToken: checked.mfaToken };
  return { tokens: await issueFirstPartyTokens(deps, checked) };
}

/** POST /auth/login/mfa (docs/strong-authentication.md #6): the second step, then the same tokens. */
export async function completeFirstPartyLogin(
  deps: Registry,
  request: CompleteFirstPartyLoginRequest,
): Promise<TokenSet> {
  return issueFirstPartyTokens(deps, await deps.identity.completeSecondFactor(request));
}

async function issueFirstPartyTokens(
  deps: Registry,
  { user, sessionId, amr, authTime }: CheckedCredentials,
): Promise<TokenSet> {
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
      authentication: { amr, authTime },
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
      amr,
      authTime,
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
