import type { MessageInitShape } from '@bufbuild/protobuf';
import type { OwnerSchema } from '@authz/proto/clients/v1/clients';
import { NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';
import { presentedAccessToken } from './bearer-token.js';

export type DeveloperOwner = MessageInitShape<typeof OwnerSchema>;

const developers = new WeakMap<FastifyRequest, DeveloperOwner>();

/**
 * interface.md 5 and docs/decisions.md #3: the developer API takes only first-party user access tokens
 * (oauth checks signature, expiry, deny-list, client and `act`); anything else is 401. The
 * token's subject then names its developer record (created on first use) and realm, which
 * every clients RPC receives (docs/decisions.md #6: clients calls no other service).
 *
 * A preValidation hook, so a missing token is 401 before the body is looked at. Routes using
 * it set `config: { authChallenge: 'Bearer' }` for the WWW-Authenticate header (RFC 6750 3).
 */
export function requireDeveloper(upstreams: Upstreams) {
  return async (request: FastifyRequest): Promise<void> => {
    const { sub } = await upstreams.tokens.verifyAccessToken({
      ...presentedAccessToken(request),
      requireFirstPartyUser: true,
    });
    try {
      const [{ developerId }, { user }] = await Promise.all([
        upstreams.identity.ensureDeveloper({ userId: sub }),
        upstreams.identity.getUser({ userId: sub }),
      ]);
      developers.set(request, { developerId, realmId: user?.realmId ?? '' });
    } catch (error) {
      // A valid token whose user is gone authenticates nobody.
      if (error instanceof NotFoundError) throw new UnauthorizedError({ detail: 'token subject unknown' });
      throw error;
    }
  };
}

/** The developer `requireDeveloper` authenticated for this request. */
export function developerOf(request: FastifyRequest): DeveloperOwner {
  const owner = developers.get(request);
  if (!owner) throw new UnauthorizedError({ detail: 'route without requireDeveloper' });
  return owner;
}
