import { InvalidRequestError } from '@authz/shared/errors';
import type { Registry } from '../../registry.js';
import { verifyIdTokenHint, type IdTokenHint } from '../logout/id-token-hint.js';
import type { TokenParameters } from '../token/token-parameters.js';

/**
 * OIDC Core 3.1.2.1 id_token_hint: an ID token this server issued to this client (expired ones
 * too), naming the user the client believes is signed in. Anything else is invalid_request
 * (docs/authorization.md #21). What it changes is in authorize.ts.
 */
export async function checkIdTokenHint(
  deps: Pick<Registry, 'keys' | 'config'>,
  values: TokenParameters,
  clientId: string,
): Promise<IdTokenHint | undefined> {
  const token = values.get('id_token_hint');
  if (token === undefined) return undefined;
  const hint = await verifyIdTokenHint(deps, token);
  if (!hint || !hint.aud.includes(clientId)) {
    throw new InvalidRequestError({ message: 'id_token_hint is not a valid ID token issued to this client' });
  }
  return hint;
}
