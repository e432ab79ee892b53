import type { VerifiedAccessToken } from '../access-token/verify-access-token.js';
import type { Registry } from '../../registry.js';
import type { TokenLineage } from './derived-token-store.js';

type Deps = Pick<Registry, 'derivedTokens'>;

/**
 * docs/tokens.md #30: what a subject token belongs to, for the token derived from it. A derived
 * subject passes on its own recorded lineage (chains keep the first subject's); a token issued
 * with a refresh token or from a code gives its family, session and consent; any other token
 * (an ID-JAG's redemption from another issuer) gives at most the session of its `sid`.
 */
export async function lineageOfSubject(
  deps: Deps,
  subject: Pick<VerifiedAccessToken, 'jti' | 'sid'>,
): Promise<TokenLineage> {
  const recorded = await deps.derivedTokens.lineageOf(subject.jti);
  if (recorded) return { ...recorded, sessionId: recorded.sessionId ?? subject.sid ?? null };
  return { familyId: null, sessionId: subject.sid ?? null, consentId: null, rootJti: subject.jti };
}

/**
 * Records a derived token with its lineage before it is handed out. False when the lineage was
 * revoked meanwhile (logout, consent withdrawal or family revocation racing the exchange): the
 * caller then refuses as for a subject token that is no longer active.
 */
export function recordDerivedToken(
  deps: Deps,
  token: { jti: string; expiresAt: number },
  userId: string,
  lineage: TokenLineage,
): Promise<boolean> {
  return deps.derivedTokens.record({ jti: token.jti, expiresAt: token.expiresAt, userId, lineage });
}
