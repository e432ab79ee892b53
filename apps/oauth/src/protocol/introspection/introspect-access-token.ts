import { UnauthorizedError } from '@authz/shared/errors';
import { readActor, type Actor } from '../delegation/actor.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { IntrospectedToken } from './introspection-result.js';
import type { Registry } from '../../registry.js';
import { verifyLiveAccessToken, type LiveAccessTokenClaims } from '../access-token/verify-access-token.js';
import { boundKeyOf } from '../dpop/check-resource-proof.js';
import type { JWTPayload } from 'jose';

type Deps = Pick<Registry, 'accessTokenSignatures' | 'config' | 'denyList'>;

/**
 * RFC 7662 section 2.2 for our access tokens: signed by us, our issuer, unexpired, not denied,
 * and seen only by the client it was issued to or one its aud names (docs/decisions.md #10).
 * Undefined when it is not active for this caller, whatever the reason.
 */
export async function introspectAccessToken(
  deps: Deps,
  token: string,
  caller: AuthenticatedClient,
): Promise<IntrospectedToken | undefined> {
  const live = await verifyOrUndefined(deps, token);
  if (!live) return undefined;
  const { payload, claims } = live;
  const aud = payload.aud ?? [];
  if (claims.clientId !== caller.clientId && !audienceList(aud).includes(caller.clientId)) return undefined;
  return {
    sub: claims.sub,
    clientId: claims.clientId,
    ...(claims.scope ? { scope: claims.scope } : {}),
    aud,
    iss: deps.config.issuer,
    exp: claims.exp,
    // Required and checked to be a number by verification (RFC 9068 section 2.2).
    iat: payload.iat as number,
    // RFC 9449 section 6.2: a bound token is reported with its key and type.
    ...bindingOf(payload),
    // RFC 8693 section 4.1 / RFC 7662 section 2.2: a delegated token is reported with its
    // actors, never as if the user held it alone (docs/agents.md #8).
    ...actOf(payload.act),
    ...authenticationOf(payload),
  };
}

// Our own signature vouches for the claims; they are copied as minted (RFC 9068 section 2.2.1).
function authenticationOf(payload: Record<string, unknown>): {
  acr?: string;
  amr?: string[];
  authTime?: number;
} {
  const { acr, amr, auth_time: authTime } = payload;
  return {
    ...(typeof acr === 'string' ? { acr } : {}),
    ...(Array.isArray(amr) && amr.every((value) => typeof value === 'string')
      ? { amr: amr as string[] }
      : {}),
    ...(typeof authTime === 'number' ? { authTime } : {}),
  };
}

function bindingOf(payload: JWTPayload): Pick<IntrospectedToken, 'tokenType' | 'cnfJkt'> {
  const jkt = boundKeyOf(payload);
  return jkt === undefined ? { tokenType: 'Bearer' } : { tokenType: 'DPoP', cnfJkt: jkt };
}

// Our own signature vouches for the claim's shape; act is copied as minted.
function actOf(claim: unknown): { act?: Actor } {
  const act = readActor(claim);
  return act ? { act } : {};
}

// An unusable token is merely inactive; an unreachable deny-list is still an error (fail closed).
async function verifyOrUndefined(deps: Deps, token: string): Promise<LiveAccessTokenClaims | undefined> {
  try {
    return await verifyLiveAccessToken(deps, token);
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}

function audienceList(aud: string | string[]): string[] {
  return Array.isArray(aud) ? aud : [aud];
}
