import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  NotFoundError,
  UnauthorizedClientError,
} from '@authz/shared/errors';
import { mintAccessToken } from '../access-token/access-token.js';
import { actorChain } from '../delegation/actor.js';
import { checkAuthorizedResource } from '../resource/check-authorized-resource.js';
import { checkClientScope } from '../scope/check-client-scope.js';
import { checkResource } from '../resource/check-resource.js';
import type { GrantRequest } from '../grants/grant.js';
import type { IdentityUser } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { formatScope, parseScope } from '../scope/scope.js';
import { tokenTypeOf } from '../dpop/dpop-binding.js';
import type { TokenSet } from '../token/token-set.js';
import type { EnterpriseAssertions } from './enterprise-port.js';
import { verifyIdJag, type VerifiedIdJag } from './verify-id-jag.js';
import type { TokenLineage } from '../token-lineage/derived-token-store.js';
import { recordDerivedToken } from '../token-lineage/token-lineage.js';

type Deps = Pick<Registry, 'keys' | 'config' | 'audit' | 'denyList' | 'derivedTokens'>;

/**
 * draft-ietf-oauth-identity-assertion-authz-grant section 5 (RFC 7523 section 2.1): a
 * confidential client redeems an ID-JAG from a trusted issuer for an access token of the
 * local account it maps to (docs/enterprise-assertions.md #6). Scope and resources stay within
 * the assertion's and the client's; no refresh token (interface.md 4.3: the client asks the issuer for
 * a new ID-JAG instead).
 */
export async function acceptIdJag(
  deps: Deps,
  enterprise: EnterpriseAssertions,
  { client, parameters, origin, dpop }: GrantRequest,
): Promise<TokenSet> {
  // RFC 7521 section 4.1 allows unauthenticated assertion grants; an ID-JAG is bound to a
  // client that proves who it is (docs/enterprise-assertions.md #3).
  if (client.method === 'none') {
    throw new UnauthorizedClientError({ message: 'A public client may not redeem an ID-JAG' });
  }
  const assertion = parameters.get('assertion');
  if (assertion === undefined) throw new InvalidRequestError({ message: 'assertion is required' });
  const verified = await verifyIdJag(deps, enterprise, client, assertion);
  const lineage = await ownLineage(deps, verified);
  const user = await localAccount(enterprise, verified);
  const scope = checkClientScope(client, formatScope(grantedScope(verified, parameters.get('scope'))));
  const requested = parameters.getAll('resource');
  const audience =
    verified.resources.length > 0
      ? checkAuthorizedResource(client, verified.resources, requested)
      : checkResource(client, requested);
  // Last, so that a refused assertion is not used up; of two concurrent uses one wins.
  const ttl = verified.exp - Math.floor(Date.now() / 1000) + 30;
  if (!(await enterprise.claimJti(verified.iss, verified.jti, ttl))) {
    throw new InvalidGrantError({ detail: 'ID-JAG jti replayed' });
  }
  const issued = await mintAccessToken(deps, {
    sub: user.id,
    clientId: client.clientId,
    audience,
    scope,
    user: { email: user.email, emailVerified: user.emailVerified },
    ...(verified.act ? { act: verified.act } : {}),
    ...(dpop ? { dpopJkt: dpop.jkt } : {}),
  });
  const recorded = await recordDerivedToken(
    deps,
    issued,
    user.id,
    lineage ?? { familyId: null, sessionId: null, consentId: null, rootJti: issued.jti },
  );
  if (!recorded) throw new InvalidGrantError({ detail: 'ID-JAG lineage revoked meanwhile' });
  await deps.audit.recordDelegation({
    type: 'id_jag_accepted',
    userId: user.id,
    clientId: client.clientId,
    actorChain: actorChain(verified.act),
    origin,
    details: {
      issuer: verified.iss,
      assertionJti: verified.jti,
      assertionSub: verified.sub,
      jti: issued.jti,
    },
  });
  return {
    accessToken: issued.token,
    expiresIn: issued.expiresIn,
    tokenType: tokenTypeOf(dpop),
    ...(scope.length > 0 ? { scope: formatScope(scope) } : {}),
  };
}

/**
 * docs/tokens.md #30: an ID-JAG this server issued to itself carries the lineage of the token
 * it was obtained with; one denied with that lineage (logout, consent withdrawal, family
 * revocation) is refused. Another issuer's sessions are not known here: its tokens are recorded
 * under the user alone.
 */
async function ownLineage(deps: Deps, verified: VerifiedIdJag): Promise<TokenLineage | undefined> {
  if (verified.iss !== deps.config.issuer) return undefined;
  if (await deps.denyList.isDenied(verified.jti)) throw new InvalidGrantError({ detail: 'ID-JAG revoked' });
  return deps.derivedTokens.lineageOf(verified.jti);
}

async function localAccount(
  enterprise: EnterpriseAssertions,
  verified: VerifiedIdJag,
): Promise<IdentityUser> {
  try {
    return await enterprise.findUserByVerifiedEmail(verified.email);
  } catch (error) {
    if (error instanceof NotFoundError) throw new InvalidGrantError({ detail: 'no local account' });
    throw error;
  }
}

// The assertion's scope, or a narrower one asked now (RFC 6749 section 3.3); never wider.
function grantedScope(verified: VerifiedIdJag, requested: string | undefined): string[] {
  if (requested === undefined) return verified.scope;
  const scope = parseScope(requested);
  if (!scope.every((token) => verified.scope.includes(token))) {
    throw new InvalidScopeError({ message: 'The requested scope exceeds the assertion scope' });
  }
  return scope;
}
