import { InvalidClientError } from '@authz/shared/errors';
import { FIRST_PARTY_CLIENT, FIRST_PARTY_CLIENT_ID } from './first-party-client.js';
import type { TokenParameters } from './token-parameters.js';
import type { BasicCredentials } from './token-request.js';

export interface AuthenticatedClient {
  clientId: string;
  grantTypes: readonly string[];
  /** The aud of its tokens (spec 2.5 aud resolution). */
  audience: string | string[];
}

/**
 * RFC 6749 section 2.3 and spec 5. Basic wins over the body; a body client_id naming another
 * client is invalid_client. Only the first-party public client exists until the clients
 * service is wired in. Failures carry no description (DECISIONS.md #21).
 */
export function authenticateClient(
  parameters: TokenParameters,
  basic: BasicCredentials | undefined,
): AuthenticatedClient {
  const bodyClientId = parameters.get('client_id');
  if (basic && bodyClientId !== undefined && bodyClientId !== basic.clientId) {
    refuse('Basic and body client_id differ');
  }
  const clientId = basic?.clientId ?? bodyClientId;
  if (clientId === undefined || clientId === '') refuse('no client identified');
  if (clientId !== FIRST_PARTY_CLIENT_ID) refuse(`unknown client ${clientId}`);
  // A public client has no secret to present (RFC 6749 section 2.1).
  if (basic?.clientSecret || parameters.has('client_secret')) refuse('secret sent for the public client');
  return FIRST_PARTY_CLIENT;
}

function refuse(detail: string): never {
  throw new InvalidClientError({ detail });
}
