import { UnauthorizedClientError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';

/** RFC 6749 section 4.1.2.1: unauthorized_client unless the client may use this grant. */
export function checkClientGrant(client: Pick<AuthenticatedClient, 'grantTypes'>): void {
  if (!client.grantTypes.includes('authorization_code')) {
    throw new UnauthorizedClientError({ message: 'The client may not use the authorization code flow' });
  }
}
