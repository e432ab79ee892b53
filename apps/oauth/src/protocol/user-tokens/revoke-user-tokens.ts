import { ValidationError } from '@authz/shared/errors';
import { denyAll } from '../access-token/deny-list.js';
import type { Registry } from '../../registry.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends a user's tokens (interface.md 4.10; docs/tokens.md #31): every refresh family but
 * those of `exceptSessionId` is revoked with the access tokens remembered in it (#11), and a
 * per-user cut-off denies every other access token of the user issued until now, including
 * those no family remembers (a code flow without `offline_access`, a token exchange).
 *
 * `iat` counts whole seconds, so the cut-off covers the whole current second and the call
 * answers only once that second is over: a token minted after the answer is never caught.
 */
export async function revokeUserTokens(
  deps: Pick<Registry, 'refreshTokens' | 'denyList' | 'config'>,
  userId: string,
  exceptSessionId: string | undefined,
): Promise<number> {
  if (!UUID.test(userId)) throw new ValidationError([{ path: 'userId', message: 'must be a user id' }]);
  if (exceptSessionId !== undefined && !UUID.test(exceptSessionId)) {
    throw new ValidationError([{ path: 'exceptSessionId', message: 'must be a session id' }]);
  }
  const now = Date.now();
  const notBefore = Math.floor(now / 1000) + 1;
  // Every token the cut-off must catch expires within ACCESS_TOKEN_TTL of now.
  await deps.denyList.cutOffUser(
    userId,
    { notBefore, ...(exceptSessionId === undefined ? {} : { exceptSessionId }) },
    deps.config.accessTokenTtlSeconds + 1,
  );
  const { revoked, live } = await deps.refreshTokens.revokeUserFamilies(
    userId,
    exceptSessionId,
    new Date(now),
  );
  await denyAll(deps.denyList, live);
  const wait = notBefore * 1000 - Date.now();
  if (wait > 0) await sleep(wait);
  return revoked;
}
