import { InvalidClientError, InvalidRequestError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { authenticateClient } from '../client-authentication/client-authentication.js';
import type { Registry } from '../../registry.js';
import { revokeAccessToken } from './revoke-access-token.js';
import { revokeRefreshToken } from './revoke-refresh-token.js';
import { readTokenParameters, type RawParameter, type TokenParameters } from '../token/token-parameters.js';
import type { TokenManagementRequest } from '../token/token-request.js';
import { tokenKindsToTry, type TokenKind } from '../token/token-type-hint.js';

/** True when the token was recognised as this kind, whether or not anything was revoked. */
type Revoke = (deps: Registry, token: string, caller: AuthenticatedClient) => Promise<boolean>;

const revokers: Record<TokenKind, Revoke> = {
  access_token: revokeAccessToken,
  refresh_token: revokeRefreshToken,
};

const CLIENT_CREDENTIALS = new Set([
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
]);

/**
 * interface.md 4.3 POST /oauth/revoke (RFC 7009 section 2.1). Only confidential clients may call it
 * (interface.md 5: shared secrets only), and a failed client authentication is the only refusal: a
 * missing, malformed, unknown or foreign token is a silent no-op (RFC 7009 section 2.2), so
 * the answer tells a caller nothing about tokens it does not own.
 */
export async function revoke(deps: Registry, request: TokenManagementRequest): Promise<void> {
  const caller = await authenticateClient(deps, {
    parameters: readCredentials(request.parameters),
    basic: request.basic,
    grantType: '',
    sharedSecretOnly: true,
  });
  const parameters = readTokenArguments(request.parameters);
  const token = parameters?.get('token');
  if (token === undefined) return;
  for (const kind of tokenKindsToTry(parameters?.get('token_type_hint'))) {
    if (await revokers[kind](deps, token, caller)) return;
  }
}

// RFC 6749 section 3.2: credentials sent twice name no single client, so they fail as a
// client authentication.
function readCredentials(raw: readonly RawParameter[]): TokenParameters {
  try {
    return readTokenParameters(raw.filter(({ name }) => CLIENT_CREDENTIALS.has(name)));
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new InvalidClientError({ detail: error.message });
    throw error;
  }
}

// A token or hint sent twice makes a malformed request: nothing to revoke, still 200 (interface.md 4.3).
function readTokenArguments(raw: readonly RawParameter[]): TokenParameters | undefined {
  try {
    return readTokenParameters(raw.filter(({ name }) => !CLIENT_CREDENTIALS.has(name)));
  } catch (error) {
    if (error instanceof InvalidRequestError) return undefined;
    throw error;
  }
}
