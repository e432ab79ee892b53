import { InvalidClientError } from '@authz/shared/errors';
import type { AuthenticatedClient } from './authenticated-client.js';
import type { PresentedClientCredentials } from './clients-port.js';
import { FIRST_PARTY_CLIENT, FIRST_PARTY_CLIENT_ID } from '../first-party/first-party-client.js';
import type { Registry } from '../../registry.js';
import type { TokenParameters } from '../token/token-parameters.js';
import type { BasicCredentials } from '../token/token-request.js';

export type ClientAuthenticationDeps = Pick<Registry, 'clients' | 'clientUsage' | 'clientBudget'>;

export interface ClientAuthenticationRequest {
  parameters: TokenParameters;
  basic: BasicCredentials | undefined;
  /** The grant asked for; empty at introspection and revocation. */
  grantType: string;
  /** Introspection and revocation accept shared-secret authentication only (interface.md 5). */
  sharedSecretOnly: boolean;
}

/**
 * RFC 6749 section 2.3 and interface.md 5. Basic wins over the body; a body client_id naming another
 * client is invalid_client. The first-party client is oauth's own (docs/decisions.md #2); every
 * other client is the clients service's to authenticate. Failures carry no description
 * (docs/decisions.md #21).
 */
export async function authenticateClient(
  deps: ClientAuthenticationDeps,
  request: ClientAuthenticationRequest,
): Promise<AuthenticatedClient> {
  const clientId = presentedClientId(request);
  if (clientId === FIRST_PARTY_CLIENT_ID) return authenticateFirstParty(request);
  const client = await deps.clients.authenticateClient(presentedCredentials(request));
  // docs/security.md #11: budgeted per client once authenticated. A public client proves
  // nothing by naming itself, so anyone could spend its budget: it has none here.
  if (client.method !== 'none') await deps.clientBudget.consume(client.clientId);
  // interface.md 2.2, 2.4: lastUsedAt, reported later in one batch rather than written now.
  deps.clientUsage.record({
    id: client.id,
    ...(client.apiKeyId ? { apiKeyId: client.apiKeyId } : {}),
    usedAt: Date.now(),
  });
  return client;
}

// interface.md 5: the Basic header wins; a body client_id that differs from it is invalid_client.
// RFC 7523 section 3: with an assertion client_id is optional, the assertion names the client.
function presentedClientId({ parameters, basic }: ClientAuthenticationRequest): string | undefined {
  const bodyClientId = parameters.get('client_id');
  if (basic && bodyClientId !== undefined && bodyClientId !== basic.clientId) {
    refuse('Basic and body client_id differ');
  }
  const clientId = basic?.clientId || bodyClientId;
  if (!clientId && !parameters.has('client_assertion')) refuse('no client identified');
  return clientId;
}

// RFC 6749 section 2.1: a public client has no secret and no key to present, so it cannot
// pass the shared-secret authentication of introspection and revocation (interface.md 5).
function authenticateFirstParty({
  parameters,
  basic,
  sharedSecretOnly,
}: ClientAuthenticationRequest): AuthenticatedClient {
  if (sharedSecretOnly) refuse('the public first-party client has no shared secret');
  const credentials = ['client_secret', 'client_assertion', 'client_assertion_type'];
  if (basic?.clientSecret || credentials.some((name) => parameters.has(name))) {
    refuse('credentials sent for the public first-party client');
  }
  return FIRST_PARTY_CLIENT;
}

function presentedCredentials({
  parameters,
  basic,
  grantType,
  sharedSecretOnly,
}: ClientAuthenticationRequest): PresentedClientCredentials {
  return {
    bodyClientId: parameters.get('client_id'),
    bodyClientSecret: parameters.get('client_secret'),
    basic,
    grantType,
    clientAssertionType: parameters.get('client_assertion_type'),
    clientAssertion: parameters.get('client_assertion'),
    sharedSecretOnly,
  };
}

function refuse(detail: string): never {
  throw new InvalidClientError({ detail });
}
