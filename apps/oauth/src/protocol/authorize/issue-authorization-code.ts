import { randomBytes } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import type { Registry } from '../../registry.js';
import { formatScope } from '../scope/scope.js';
import { redirectToClient, type AuthorizationOutcome } from './authorization-outcome.js';
import type { AuthorizationRequest } from './authorization-request.js';

/** Who the code is for: the signed-in session and the consent it is issued under. */
export interface CodeHolder {
  userId: string;
  sessionId: string;
  /** Epoch seconds. */
  authTime: number;
  /** RFC 8176 methods of the session's authentication (docs/strong-authentication.md #5). */
  amr: string[];
  consentId: string;
}

type Deps = Pick<Registry, 'config' | 'authorizationCodes'>;

/**
 * RFC 6749 section 4.1.2: a single-use code of 256 random bits (base64url), stored only as its
 * keyed hash with what its redemption must check, living AUTHORIZATION_CODE_TTL seconds; the
 * browser goes back with code, state and iss (RFC 9207).
 */
export async function issueAuthorizationCode(
  { config, authorizationCodes }: Deps,
  request: AuthorizationRequest,
  holder: CodeHolder,
): Promise<AuthorizationOutcome> {
  const code = randomBytes(32).toString('base64url');
  await authorizationCodes.save({
    codeHash: keyedHash(config.secretHashKey, code),
    clientId: request.clientId,
    userId: holder.userId,
    sessionId: holder.sessionId,
    consentId: holder.consentId,
    redirectUri: request.redirectUriSent ? request.redirectUri : '',
    codeChallenge: request.codeChallenge,
    scope: formatScope(request.scope),
    resources: request.resources,
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    ...(request.dpopJkt === undefined ? {} : { dpopJkt: request.dpopJkt }),
    authTime: holder.authTime,
    amr: holder.amr,
    expiresAt: new Date(Date.now() + config.authorizationCodeTtlSeconds * 1000),
  });
  return redirectToClient(config.issuer, request, { code });
}
