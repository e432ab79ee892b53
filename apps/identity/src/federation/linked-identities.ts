import type { UnlinkFederatedIdentityRequest } from '@authz/proto/identity/v1/federation';
import { ConflictError, NotFoundError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { Registry } from '../registry.js';

type Deps = Pick<Registry, 'federatedCredentials' | 'upstreamProviders'>;

/** The account page's list (interface.md 4.14): each identity with its provider's name. */
export async function listFederatedIdentities(deps: Deps, userId: string) {
  if (!isUuid(userId)) throw new NotFoundError();
  const { identities, signInMethods } = await deps.federatedCredentials.list(userId);
  const names = new Map(deps.upstreamProviders.map(({ id, displayName }) => [id, displayName]));
  return {
    signInMethods,
    identities: identities.map((identity) => ({
      id: identity.id,
      providerId: identity.providerId,
      displayName: names.get(identity.providerId) ?? identity.providerId,
      createdAt: BigInt(identity.createdAt.getTime()),
      ...(identity.lastUsedAt ? { lastUsedAt: BigInt(identity.lastUsedAt.getTime()) } : {}),
    })),
  };
}

/** docs/federation.md #9: never the last way into the account. */
export async function unlinkFederatedIdentity(
  deps: Deps,
  request: UnlinkFederatedIdentityRequest,
): Promise<void> {
  if (!isUuid(request.userId) || !isUuid(request.identityId)) throw new NotFoundError();
  const outcome = await deps.federatedCredentials.unlink(request.userId, request.identityId, {
    type: 'federated_identity_unlinked',
    origin: request.origin,
  });
  if (outcome === undefined) throw new NotFoundError();
  if (outcome === 'last_method') {
    throw new ConflictError({ message: 'This is the only way to sign in to the account' });
  }
}
