import type { OAuthError } from '@authz/shared/errors';
import { InvalidRequestError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { readAuthorizationParameters } from '../authorize/authorization-parameters.js';
import { MAX_OPAQUE_VALUE_LENGTH } from '../authorize/check-state-and-nonce.js';
import type { RawParameter } from '../token/token-parameters.js';
import type { Registry } from '../../registry.js';
import { verifyIdTokenHint, type IdTokenHint } from './id-token-hint.js';
import type { LogoutDestination } from './logout-outcome.js';

/** A logout request whose every parameter was checked. */
export interface LogoutRequest extends LogoutDestination {
  hint?: IdTokenHint;
  client?: Pick<AuthenticatedClient, 'clientId' | 'name'>;
}

/**
 * OIDC RP-Initiated Logout 1.0 sections 2 and 3, interface.md 4.3, in order: no parameter twice;
 * `state` at most 512 characters (docs/authorization.md #5); an `id_token_hint` must be a valid
 * ID token of ours; `client_id`, when sent with a hint, must be among its audiences; the client
 * (named by `client_id`, else the hint's single audience) must resolve; a
 * `post_logout_redirect_uri` needs that client and must be one of its registered URIs, compared
 * as exact strings. `logout_hint` and `ui_locales` are accepted and not used (one account per
 * browser session, one language). Every failure is InvalidRequestError or the client's
 * resolution error, shown on the error page: nothing is redirected to an unchecked URI.
 */
export async function readLogoutRequest(
  deps: Pick<Registry, 'keys' | 'config' | 'clients'>,
  raw: readonly RawParameter[],
): Promise<LogoutRequest> {
  const { values, duplicated } = readAuthorizationParameters(raw);
  const [twice] = [...duplicated];
  if (twice !== undefined) throw invalid(`${twice} was sent more than once`);
  const state = values.get('state');
  if (state !== undefined && state.length > MAX_OPAQUE_VALUE_LENGTH) {
    throw invalid(`state is longer than ${MAX_OPAQUE_VALUE_LENGTH} characters`);
  }
  const hintToken = values.get('id_token_hint');
  const hint = hintToken === undefined ? undefined : await verifyIdTokenHint(deps, hintToken);
  if (hintToken !== undefined && hint === undefined) {
    throw invalid('id_token_hint is not a valid ID token of this server');
  }
  const clientId = values.get('client_id') ?? (hint?.aud.length === 1 ? hint.aud[0] : undefined);
  if (clientId !== undefined && hint !== undefined && !hint.aud.includes(clientId)) {
    throw invalid('client_id is not an audience of id_token_hint');
  }
  const client = clientId === undefined ? undefined : await deps.clients.resolveClient(clientId);
  const postLogoutRedirectUri = values.get('post_logout_redirect_uri');
  if (postLogoutRedirectUri !== undefined) {
    if (!client) throw invalid('post_logout_redirect_uri requires client_id or id_token_hint');
    if (!client.postLogoutRedirectUris.includes(postLogoutRedirectUri)) {
      throw invalid('post_logout_redirect_uri is not registered for this client');
    }
  }
  return {
    ...(hint ? { hint } : {}),
    ...(client ? { client: { clientId: client.clientId, name: client.name } } : {}),
    ...(postLogoutRedirectUri === undefined ? {} : { postLogoutRedirectUri }),
    ...(state === undefined ? {} : { state }),
  };
}

function invalid(message: string): OAuthError {
  return new InvalidRequestError({ message });
}
