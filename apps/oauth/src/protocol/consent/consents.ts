import { NotFoundError } from '@authz/shared/errors';
import type { StoredConsent } from './consent-store.js';
import { denyAll, type LiveAccessToken } from '../access-token/deny-list.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'consents' | 'refreshTokens' | 'authorizationCodes' | 'denyList'>;

/** interface.md 4.6 GET /consents/: the user's live consents, newest first. */
export function listConsents(deps: Pick<Registry, 'consents'>, userId: string): Promise<StoredConsent[]> {
  return deps.consents.listLive(userId);
}

/**
 * interface.md 4.6 DELETE /consents/{id}: only a live consent of the user (NotFoundError otherwise,
 * also for another user's). Every refresh-token family issued under it is revoked, and the
 * still-live access tokens issued under it, from a code or a refresh, are denied
 * (docs/authorization.md #15).
 */
export async function revokeConsent(deps: Deps, userId: string, consentId: string): Promise<void> {
  const now = new Date();
  if (!(await deps.consents.revoke(userId, consentId, now))) {
    throw new NotFoundError({ detail: 'no live consent of this user with that id' });
  }
  const fromFamilies = await deps.refreshTokens.revokeConsentFamilies(consentId, now);
  const fromCodes = await deps.authorizationCodes.liveAccessTokensOfConsent(consentId, now);
  await denyAll(deps.denyList, distinct([...fromFamilies, ...fromCodes]));
}

function distinct(tokens: readonly LiveAccessToken[]): LiveAccessToken[] {
  return [...new Map(tokens.map((token) => [token.jti, token])).values()];
}
