import { InvalidClientError, InvalidRequestError, NotFoundError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import type { AuthorizationParameters } from './authorization-parameters.js';

/**
 * RFC 6749 section 4.1.2.1: a missing, unknown or disabled client_id is shown to the user,
 * never redirected (interface.md 5 resolution order, by the clients service). A client_id sent twice
 * names no client (section 3.1).
 */
export async function resolveClient(
  deps: Pick<Registry, 'clients'>,
  { values, duplicated }: AuthorizationParameters,
): Promise<AuthenticatedClient> {
  if (duplicated.has('client_id')) {
    throw new InvalidRequestError({ message: 'client_id was sent more than once' });
  }
  const clientId = values.get('client_id');
  if (clientId === undefined) throw new InvalidClientError({ message: 'client_id is required' });
  try {
    return await deps.clients.resolveClient(clientId);
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new InvalidClientError({
        message: 'Unknown or disabled client',
        detail: `client_id ${clientId}`,
      });
    }
    // A CIMD document problem carries a public description (interface.md 7); a fetch failure none.
    if (error instanceof InvalidClientError && !error.hasCustomMessage) {
      throw new InvalidClientError({ message: 'The client could not be resolved', detail: error.detail });
    }
    throw error;
  }
}
