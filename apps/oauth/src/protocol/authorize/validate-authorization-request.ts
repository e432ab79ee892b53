import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { checkClientScope } from '../scope/check-client-scope.js';
import { checkResource } from '../resource/check-resource.js';
import type { AuthorizationParameters } from './authorization-parameters.js';
import type { AuthorizationRequest } from './authorization-request.js';
import type { ClientRedirectTarget } from './authorization-outcome.js';
import { checkClientGrant } from './check-client-grant.js';
import { checkDuplicatedParameters } from './check-duplicated-parameters.js';
import { checkAcrValues } from './check-acr-values.js';
import { checkMaxAge } from './check-max-age.js';
import { checkPkceChallenge } from '../pkce/check-pkce-challenge.js';
import { checkPrompt } from './check-prompt.js';
import type { CheckedRedirectUri } from './check-redirect-uri.js';
import { checkRequestObject } from './check-request-object.js';
import { checkResponseType } from './check-response-type.js';
import { checkStateAndNonce, MAX_OPAQUE_VALUE_LENGTH } from './check-state-and-nonce.js';
import { checkDpopJkt } from '../dpop/check-dpop-jkt.js';

/**
 * interface.md 4.3 /oauth/authorize once the client and its redirect URI are trusted: the checks
 * whose failures go back to the client (RFC 6749 section 4.1.2.1), in this order.
 */
export function validateAuthorizationRequest(
  client: AuthenticatedClient,
  redirect: CheckedRedirectUri,
  parameters: AuthorizationParameters,
): AuthorizationRequest {
  const { values } = parameters;
  checkDuplicatedParameters(parameters);
  checkResponseType(values);
  checkClientGrant(client);
  const codeChallenge = checkPkceChallenge(values);
  checkRequestObject(values);
  const scope = checkClientScope(client, values.get('scope'));
  const resources = values.getAll('resource');
  checkResource(client, resources);
  const prompt = checkPrompt(values);
  const maxAge = checkMaxAge(values);
  const dpop = checkDpopJkt(values);
  const acrRequired = checkAcrValues(values);
  return {
    clientId: client.clientId,
    clientName: client.name,
    clientSource: client.source,
    redirectUri: redirect.redirectUri,
    redirectUriSent: redirect.sent,
    scope,
    resources: [...new Set(resources)],
    codeChallenge,
    prompt,
    ...(maxAge === undefined ? {} : { maxAge }),
    ...(acrRequired === undefined ? {} : { acrRequired }),
    ...checkStateAndNonce(values),
    ...dpop,
  };
}

/**
 * Where errors go once the redirect URI is trusted. RFC 6749 section 4.1.2.1 echoes state;
 * a state sent twice or longer than kept is not echoed (docs/authorization.md #5).
 */
export function redirectTargetOf(
  redirect: CheckedRedirectUri,
  { values, duplicated }: AuthorizationParameters,
): ClientRedirectTarget {
  const state = duplicated.has('state') ? undefined : values.get('state');
  const echoed = state !== undefined && state.length <= MAX_OPAQUE_VALUE_LENGTH ? state : undefined;
  return { redirectUri: redirect.redirectUri, ...(echoed === undefined ? {} : { state: echoed }) };
}
