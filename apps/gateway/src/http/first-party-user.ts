import { UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';
import { presentedAccessToken } from './bearer-token.js';

/** The user a first-party access token stands for, and the session it was issued in. */
export interface FirstPartyUser {
  userId: string;
  /** The token's `sid`; absent for tokens issued outside a session. */
  sessionId: string | undefined;
}

const users = new WeakMap<FastifyRequest, FirstPartyUser>();

/**
 * interface.md 5 and docs/decisions.md #3, for the account routes of interface.md 4.10: only a live
 * first-party user token (oauth checks signature, expiry, deny-list, client and `act`);
 * anything else is 401. A preValidation hook, so a missing token is 401 before the body is
 * looked at; routes set `config: { authChallenge: 'Bearer' }` (RFC 6750 section 3).
 */
export function requireFirstPartyUser(upstreams: Upstreams) {
  return async (request: FastifyRequest): Promise<void> => {
    const { sub, sid } = await upstreams.tokens.verifyAccessToken({
      ...presentedAccessToken(request),
      requireFirstPartyUser: true,
    });
    users.set(request, { userId: sub, sessionId: sid });
  };
}

/** The user `requireFirstPartyUser` authenticated for this request. */
export function firstPartyUserOf(request: FastifyRequest): FirstPartyUser {
  const user = users.get(request);
  if (!user) throw new UnauthorizedError({ detail: 'route without requireFirstPartyUser' });
  return user;
}
