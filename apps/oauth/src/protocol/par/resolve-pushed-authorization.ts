import { InvalidRequestError, InvalidRequestUriError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import type { RawParameter } from '../token/token-parameters.js';
import { REQUEST_URI_PREFIX } from './pushed-authorization.js';

export interface ResolvedAuthorizationParameters {
  parameters: readonly RawParameter[];
  /** Whether they came from a pushed authorization request. */
  pushed: boolean;
}

/**
 * RFC 9126 section 4: /oauth/authorize with client_id and one of our request URIs runs the pushed
 * request, taken once, and ignores every other parameter sent (docs/par-and-dpop.md #2, #3). A
 * request_uri of another form is left to the request object check (not supported).
 */
export async function resolvePushedAuthorization(
  deps: Pick<Registry, 'pushedAuthorizations'>,
  raw: readonly RawParameter[],
): Promise<ResolvedAuthorizationParameters> {
  const requestUri = raw.find(({ name }) => name === 'request_uri')?.value;
  if (requestUri === undefined || !requestUri.startsWith(REQUEST_URI_PREFIX)) {
    return { parameters: raw, pushed: false };
  }
  const clientIds = raw.filter(({ name }) => name === 'client_id').map(({ value }) => value);
  if (clientIds.length !== 1 || !clientIds[0]) {
    throw new InvalidRequestError({ message: 'client_id is required with request_uri' });
  }
  const pushed = await deps.pushedAuthorizations.take(requestUri.slice(REQUEST_URI_PREFIX.length));
  if (!pushed) {
    throw new InvalidRequestUriError({ message: 'The request_uri is unknown, expired or already used' });
  }
  if (pushed.clientId !== clientIds[0]) {
    throw new InvalidRequestUriError({ message: 'The request_uri was not issued to this client' });
  }
  return { parameters: pushed.parameters, pushed: true };
}

/** RFC 9126 section 5 and 6: REQUIRE_PAR or the client's own setting (docs/par-and-dpop.md #4). */
export function checkPushedRequired(
  deps: Pick<Registry, 'config'>,
  client: AuthenticatedClient,
  pushed: boolean,
): void {
  if (pushed) return;
  if (deps.config.requirePushedAuthorizationRequests || client.requirePushedAuthorizationRequests) {
    throw new InvalidRequestError({
      message: 'Pushed authorization requests are required: push the request to /oauth/par first',
    });
  }
}
