import { InvalidRequestError, NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import type { JWTPayload } from 'jose';
import { ActorChainError, readActor, type Actor } from '../delegation/actor.js';
import type { IdentityUserProfile } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import { verifyLiveAccessToken, type VerifiedAccessToken } from '../access-token/verify-access-token.js';

/** A subject token that may be exchanged: ours, live, for a user (docs/decisions.md #12, #13). */
export interface SubjectToken {
  claims: VerifiedAccessToken;
  /** `aud` as the token has it: one string or a list. */
  aud: string | string[];
  scope: string[];
  act?: Actor;
  /** The user as identity knows it now (fresh claims for the new token). */
  user: IdentityUserProfile;
}

type Deps = Pick<Registry, 'accessTokenSignatures' | 'config' | 'denyList' | 'identity'>;

/**
 * RFC 8693 section 2.1: the subject token is one of our access tokens (signature, typ, iss),
 * unexpired and not revoked (the deny-list), and user-context: its sub is a user that still
 * exists, not a client acting for itself. Each failure is the same invalid_request, so the
 * caller learns nothing about which check failed (docs/decisions.md #12).
 */
export async function readSubjectToken(deps: Deps, token: string): Promise<SubjectToken> {
  const { payload, claims } = await verifySubjectToken(deps, token);
  if (claims.sub === claims.clientId) throw refuse('subject token is not user-context');
  let act: Actor | undefined;
  try {
    act = readActor(payload.act);
  } catch (error) {
    if (error instanceof ActorChainError) throw refuse(error.message);
    throw error;
  }
  return {
    claims,
    aud: audienceOf(payload),
    scope: parseScope(claims.scope),
    ...(act ? { act } : {}),
    user: await currentUser(deps, claims.sub),
  };
}

async function verifySubjectToken(deps: Deps, token: string) {
  try {
    return await verifyLiveAccessToken(deps, token);
  } catch (error) {
    // An unreachable deny-list is still an error: fail closed (docs/tokens.md #14).
    if (error instanceof UnauthorizedError) throw refuse(error.detail ?? 'subject token rejected');
    throw error;
  }
}

async function currentUser(deps: Deps, userId: string): Promise<IdentityUserProfile> {
  try {
    return await deps.identity.getUser(userId);
  } catch (error) {
    if (error instanceof NotFoundError) throw refuse('subject token user no longer exists');
    throw error;
  }
}

function audienceOf(payload: JWTPayload): string | string[] {
  const { aud } = payload;
  if (typeof aud === 'string' || Array.isArray(aud)) return aud;
  throw refuse('subject token without aud');
}

/** Every subject token refusal: one public message, the reason only in the logs. */
function refuse(detail: string): InvalidRequestError {
  return new InvalidRequestError({ message: 'The subject token is not active', detail });
}
