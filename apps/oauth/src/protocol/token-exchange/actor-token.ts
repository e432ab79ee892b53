import { InvalidRequestError, UnauthorizedError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import { verifyLiveAccessToken } from '../access-token/verify-access-token.js';

type Deps = Pick<Registry, 'accessTokenSignatures' | 'config' | 'denyList'>;

/**
 * RFC 8693 section 2.1 actor_token, optional: when sent it must be a live access token of ours
 * standing for the authenticated client itself (its client_credentials token: sub = client_id
 * = the caller, no act of its own), since `act` names the caller and nobody else.
 */
export async function checkActorToken(
  deps: Deps,
  client: AuthenticatedClient,
  token: string | undefined,
): Promise<void> {
  if (token === undefined) return;
  let verified;
  try {
    verified = await verifyLiveAccessToken(deps, token);
  } catch (error) {
    if (error instanceof UnauthorizedError) throw refuse(error.detail ?? 'actor token rejected');
    throw error;
  }
  const { claims } = verified;
  if (claims.sub !== client.clientId || claims.clientId !== client.clientId || claims.hasAct) {
    throw refuse('actor token does not stand for the authenticated client');
  }
}

function refuse(detail: string): InvalidRequestError {
  return new InvalidRequestError({ message: 'The actor token is not valid for this client', detail });
}
