import { keyedHash } from '@authz/shared/crypto';
import { InvalidGrantError, InvalidRequestError, NotFoundError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { StoredAuthorizationCode } from '../authorization-code/authorization-code-store.js';
import { revokeIssuedTokens, revokeReusedCode } from '../authorization-code/authorization-code-reuse.js';
import { checkAuthorizedResource } from '../resource/check-authorized-resource.js';
import { checkPkceVerifier } from '../pkce/check-pkce-verifier.js';
import type { IdentityUser } from '../identity-port.js';
import { issueCodeTokens } from '../authorization-code/issue-code-tokens.js';
import type { Registry } from '../../registry.js';
import type { TokenParameters } from '../token/token-parameters.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';
import type { DpopBinding } from '../dpop/dpop-binding.js';

/** RFC 6749 section 4.1.3 with PKCE (RFC 7636 section 4.5, 4.6) and RFC 8707 resources. */
export const grantType = 'authorization_code';
export const parameters = ['code', 'redirect_uri', 'code_verifier', 'resource'] as const;

// Codes are 256 random bits, base64url (docs/authorization.md #11).
const CODE = /^[A-Za-z0-9_-]{43}$/;

export async function handle(deps: Registry, { client, parameters, dpop }: GrantRequest): Promise<TokenSet> {
  const now = new Date();
  const code = await findCode(deps, parameters);
  checkClientBinding(code, client);
  // RFC 7636 section 4.6 before RFC 6749 section 4.1.2: only the verifier's holder proves a
  // reuse, so a leaked, redeemed code alone cannot revoke what it issued (docs/authorization.md #12).
  checkPkceVerifier(parameters.get('code_verifier'), code.codeChallenge);
  if (code.redeemedAt) {
    await revokeReusedCode(deps, code, now);
    throw codeReused('authorization code used again');
  }
  checkUsable(code, now);
  checkRedirectUri(code, client, parameters.get('redirect_uri'));
  checkKeyBinding(code, dpop);
  const audience = checkAuthorizedResource(client, code.resources, parameters.getAll('resource'));
  const user = await codeUser(deps, code);
  // The atomic step: of concurrent redemptions exactly one gets here; the others are reuse.
  if (!(await deps.authorizationCodes.redeem(code.id, now))) {
    await revokeReusedCode(deps, code, now);
    throw codeReused('authorization code redeemed concurrently');
  }
  const { tokens, issued } = await issueCodeTokens(deps, client, code, user, audience, now, dpop);
  // A reuse that came before this record could not revoke these tokens: revoke them here.
  if ((await deps.authorizationCodes.recordIssued(code.id, issued)).reused) {
    await revokeIssuedTokens(deps, issued, now);
    throw codeReused('authorization code used again while it was redeemed');
  }
  return tokens;
}

async function findCode(deps: Registry, parameters: TokenParameters): Promise<StoredAuthorizationCode> {
  const presented = parameters.get('code');
  if (presented === undefined) throw new InvalidRequestError({ message: 'code is required' });
  const code = CODE.test(presented)
    ? await deps.authorizationCodes.findByHash(keyedHash(deps.config.secretHashKey, presented))
    : undefined;
  if (!code) throw invalidGrant('unknown or malformed authorization code');
  return code;
}

// RFC 6749 section 4.1.3: the code was issued to the authenticated client. Another client's
// attempt leaves the code alone.
function checkClientBinding(code: StoredAuthorizationCode, client: AuthenticatedClient): void {
  if (code.clientId !== client.clientId) throw invalidGrant('authorization code of another client');
}

// RFC 6749 section 4.1.2: short-lived; a revoked consent takes its unredeemed codes with it.
function checkUsable(code: StoredAuthorizationCode, now: Date): void {
  if (code.expiresAt <= now) {
    throw new InvalidGrantError({
      message: 'The authorization code has expired',
      detail: 'authorization code expired',
    });
  }
  if (code.consentRevokedAt) throw invalidGrant('consent revoked');
}

// RFC 6749 section 4.1.3: identical to the authorization request's redirect_uri when that one
// carried it; when it was omitted, one sent now must still be registered (docs/authorization.md #13).
function checkRedirectUri(code: StoredAuthorizationCode, client: AuthenticatedClient, sent?: string): void {
  const matches =
    code.redirectUri === ''
      ? sent === undefined || client.redirectUris.includes(sent)
      : sent === code.redirectUri;
  if (!matches) {
    throw new InvalidGrantError({ message: 'redirect_uri does not match the authorization request' });
  }
}

// RFC 9449 section 10: a code issued for a dpop_jkt is redeemed only with a proof of that key.
function checkKeyBinding(code: StoredAuthorizationCode, dpop: DpopBinding | undefined): void {
  if (code.dpopJkt !== undefined && dpop?.jkt !== code.dpopJkt) {
    throw new InvalidGrantError({
      message: 'The DPoP proof key is not the dpop_jkt of the authorization request',
      detail: dpop ? 'DPoP key mismatch' : 'DPoP proof missing for a bound code',
    });
  }
}

// The tokens carry the code's session as their sid: a session ended between the code and its
// exchange (logout, or an account disabled or deleted, docs/admin-api.md #4) would hand out
// tokens of a dead session that no session end revokes (docs/authorization.md #23).
async function codeUser(deps: Registry, code: StoredAuthorizationCode): Promise<IdentityUser> {
  try {
    await deps.accounts.requireUserSession(code.userId, code.sessionId);
  } catch (error) {
    if (error instanceof NotFoundError) throw invalidGrant('session of the code ended');
    throw error;
  }
  try {
    return await deps.identity.getUser(code.userId);
  } catch (error) {
    if (error instanceof NotFoundError) throw invalidGrant('user no longer exists');
    throw error;
  }
}

function invalidGrant(detail: string): InvalidGrantError {
  return new InvalidGrantError({ detail });
}

// docs/errors.md "What a client is told": said only after the verifier proved the caller holds the code, so the
// client learns why its tokens stopped working (a double exchange, e.g. a framework running the
// callback twice) and nobody else learns anything.
function codeReused(detail: string): InvalidGrantError {
  return new InvalidGrantError({
    message: 'The authorization code was already used; the tokens issued for it have been revoked',
    detail,
  });
}
