import { InvalidRequestError } from '@authz/shared/errors';
import { checkIdTokenHint } from '../authorize/check-id-token-hint.js';
import { readAuthorizationParameters } from '../authorize/authorization-parameters.js';
import { checkRedirectUri } from '../authorize/check-redirect-uri.js';
import { validateAuthorizationRequest } from '../authorize/validate-authorization-request.js';
import { authenticateClient } from '../client-authentication/client-authentication.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { checkTokenRequestProof } from '../dpop/check-token-request-proof.js';
import type { DpopBinding } from '../dpop/dpop-binding.js';
import type { Registry } from '../../registry.js';
import { readTokenParameters, type RawParameter } from '../token/token-parameters.js';
import type { TokenRequest } from '../token/token-request.js';
import { PUSHED_AUTHORIZATION_TTL_SECONDS, REQUEST_URI_PREFIX } from './pushed-authorization.js';

export interface PushedRequestUri {
  requestUri: string;
  expiresIn: number;
}

/** The client's credentials travel with the push but are no authorization parameters. */
const CREDENTIALS = new Set(['client_secret', 'client_assertion', 'client_assertion_type']);

/**
 * RFC 9126 section 2 (interface.md 4.12): the client authenticates as at the token endpoint
 * (with its per-client budget), the DPoP proof is checked as there, and the request passes every
 * check of /oauth/authorize before it is stored behind a single-use request URI for 60 s
 * (docs/par-and-dpop.md #1 to #3). Every failure is a JSON error, never a redirect (section 2.3).
 */
export async function pushAuthorizationRequest(
  deps: Registry,
  request: TokenRequest,
): Promise<PushedRequestUri> {
  // RFC 6749 section 3.1 and RFC 9126 section 2.1: no parameter twice, no request_uri pushed.
  const form = readTokenParameters(request.parameters);
  if (form.has('request_uri')) {
    throw new InvalidRequestError({ message: 'request_uri may not be pushed' });
  }
  const dpop = await checkTokenRequestProof(deps, request.dpop);
  const client = await authenticateClient(deps, {
    parameters: form,
    basic: request.basic,
    grantType: 'authorization_code',
    sharedSecretOnly: false,
  });
  const parameters = authorizationParametersOf(request.parameters, client, dpop);
  await validatePushed(deps, client, parameters);
  const handle = await deps.pushedAuthorizations.create({ clientId: client.clientId, parameters });
  return { requestUri: `${REQUEST_URI_PREFIX}${handle}`, expiresIn: PUSHED_AUTHORIZATION_TTL_SECONDS };
}

/**
 * The authorization request without the credentials, naming the authenticated client (a
 * private_key_jwt client may leave client_id out) and, with a DPoP proof, its key as dpop_jkt
 * (RFC 9449 section 10.1: both present must match).
 */
function authorizationParametersOf(
  raw: readonly RawParameter[],
  client: AuthenticatedClient,
  dpop: DpopBinding | undefined,
): RawParameter[] {
  const kept = raw.filter(({ name, value }) => !CREDENTIALS.has(name) && value !== '');
  const sentJkt = kept.find(({ name }) => name === 'dpop_jkt')?.value;
  if (dpop && sentJkt !== undefined && sentJkt !== dpop.jkt) {
    throw new InvalidRequestError({ message: 'dpop_jkt does not match the key of the DPoP proof' });
  }
  return [
    ...(kept.some(({ name }) => name === 'client_id') ? [] : [{ name: 'client_id', value: client.clientId }]),
    ...kept,
    ...(dpop && sentJkt === undefined ? [{ name: 'dpop_jkt', value: dpop.jkt }] : []),
  ];
}

// The checks of /oauth/authorize, the same functions in the same order (docs/par-and-dpop.md #1).
async function validatePushed(
  deps: Registry,
  client: AuthenticatedClient,
  raw: readonly RawParameter[],
): Promise<void> {
  const parameters = readAuthorizationParameters(raw);
  const redirect = checkRedirectUri(client, parameters);
  validateAuthorizationRequest(client, redirect, parameters);
  await checkIdTokenHint(deps, parameters.values, client.clientId);
}
