import { randomUUID } from 'node:crypto';
import { InvalidRequestError, InvalidTargetError, UnauthorizedClientError } from '@authz/shared/errors';
import { signCompactJws } from '../../keys/compact-jws.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { GrantRequest } from '../grants/grant.js';
import type { Registry } from '../../registry.js';
import { formatScope } from '../scope/scope.js';
import type { TokenSet } from '../token/token-set.js';
import { narrowScope } from '../token-exchange/narrow-delegation.js';
import { readSubjectToken, type SubjectToken } from '../token-exchange/subject-token.js';
import { ID_JAG_TOKEN_TYPE } from '../token-exchange/token-types.js';
import { mostTrustedEmail } from '../userinfo/userinfo.js';
import { ID_JAG_TTL_SECONDS, ID_JAG_TYP } from './id-jag.js';
import { lineageOfSubject, recordDerivedToken } from '../token-lineage/token-lineage.js';

type Deps = Pick<
  Registry,
  'keys' | 'accessTokenSignatures' | 'config' | 'denyList' | 'identity' | 'audit' | 'derivedTokens'
>;
type Config = Pick<Registry['config'], 'idJagAudiences'>;

/**
 * draft-ietf-oauth-identity-assertion-authz-grant section 4.3 as docs/decisions.md #13 narrows it:
 * a confidential client holding the token-exchange grant trades a user access token that was
 * issued to it, and not delegated, for a signed ID-JAG addressed to one authorization server the
 * operator allows (ENTERPRISE_ID_JAG_AUDIENCES). The response is RFC 8693's: the ID-JAG as
 * access_token, token_type N_A, no refresh token.
 */
export async function issueIdJag(
  deps: Deps,
  { client, parameters, origin }: GrantRequest,
): Promise<TokenSet> {
  checkConfidential(client);
  const subject = await readSubjectToken(deps, parameters.get('subject_token')!);
  if (subject.claims.clientId !== client.clientId) {
    throw new InvalidRequestError({
      message: 'The subject token was issued to another client',
      detail: `subject client ${subject.claims.clientId}`,
    });
  }
  checkUndelegated(subject);
  const audience = targetAuthorizationServer(deps.config, parameters.getAll('audience'));
  const resources = checkResources(parameters.getAll('resource'));
  // The user consented to these scopes for this client; the assertion carries no more.
  const scope = narrowScope(parameters.get('scope'), subject.scope, subject.scope);
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = Math.min(now + ID_JAG_TTL_SECONDS, subject.claims.exp);
  const jti = randomUUID();
  const { kid, privateKey } = deps.keys.signingKey();
  const claims = {
    client_id: client.clientId,
    ...(scope.length > 0 ? { scope: formatScope(scope) } : {}),
    ...(resources.length > 0 ? { resource: resources.length === 1 ? resources[0] : resources } : {}),
    ...emailClaims(subject),
    iss: deps.config.issuer,
    sub: subject.user.id,
    aud: audience,
    iat: now,
    exp: expiresAt,
    jti,
  };
  const assertion = await signCompactJws({ alg: 'EdDSA', typ: ID_JAG_TYP, kid }, claims, privateKey);
  // docs/tokens.md #30: should this server be the target too, the token it is redeemed for here
  // ends with the subject's session, family or consent; and the ID-JAG's jti is denied with them.
  const lineage = await lineageOfSubject(deps, subject.claims);
  if (!(await recordDerivedToken(deps, { jti, expiresAt }, subject.user.id, lineage))) {
    throw new InvalidRequestError({
      message: 'The subject token is not active',
      detail: 'lineage revoked meanwhile',
    });
  }
  await deps.audit.recordDelegation({
    type: 'id_jag_issued',
    userId: subject.user.id,
    clientId: client.clientId,
    // checkUndelegated: the user alone, no actor.
    actorChain: [],
    origin,
    details: { audience, jti, subjectJti: subject.claims.jti },
  });
  return {
    accessToken: assertion,
    expiresIn: expiresAt - now,
    tokenType: 'N_A',
    ...(scope.length > 0 ? { scope: formatScope(scope) } : {}),
    issuedTokenType: ID_JAG_TOKEN_TYPE,
  };
}

// The draft's security considerations: only clients that authenticate may obtain an ID-JAG,
// which another server redeems for an access token (docs/enterprise-assertions.md #3).
function checkConfidential(client: AuthenticatedClient): void {
  if (client.method === 'none') {
    throw new UnauthorizedClientError({ message: 'A public client may not obtain an ID-JAG' });
  }
}

// docs/enterprise-assertions.md #3: an agent's exchanged token carries the agent as client_id
// and `act`; any registered client may be an agent, so taking it would let whoever holds a
// user's token obtain an assertion in the user's name. RFC 8693 section 2.2.2: an unacceptable
// subject_token is invalid_request.
function checkUndelegated(subject: SubjectToken): void {
  if (subject.act) {
    throw new InvalidRequestError({
      message: 'A delegated subject token may not be exchanged for an ID-JAG',
      detail: `subject jti ${subject.claims.jti}`,
    });
  }
}

// Draft section 4.3: audience is REQUIRED and names the target authorization server's issuer;
// RFC 8693 section 2.2.2: a target the server will not issue for is invalid_target. Only the
// operator's ENTERPRISE_ID_JAG_AUDIENCES qualify (docs/enterprise-assertions.md #2).
function targetAuthorizationServer(config: Config, audiences: readonly string[]): string {
  if (audiences.length !== 1) {
    throw new InvalidRequestError({ message: 'Exactly one audience (the target issuer) is required' });
  }
  const audience = audiences[0]!;
  if (!isAbsoluteUriWithoutFragment(audience)) {
    throw new InvalidTargetError({ message: 'audience must be an absolute URI without a fragment' });
  }
  if (!config.idJagAudiences.includes(audience)) {
    throw new InvalidTargetError({
      message: 'The audience is not an allowed target authorization server',
      detail: `audience ${audience}`,
    });
  }
  return audience;
}

// RFC 8707 section 2: resources of the target server; this server cannot judge them further.
function checkResources(resources: readonly string[]): string[] {
  const unique = [...new Set(resources)];
  if (!unique.every(isAbsoluteUriWithoutFragment)) {
    throw new InvalidTargetError({ message: 'resource must be an absolute URI without a fragment' });
  }
  return unique;
}

// docs/enterprise-assertions.md #5: the address the receiver maps to its account, only verified.
function emailClaims({ user }: SubjectToken): Record<string, unknown> {
  const email = mostTrustedEmail(user.verifiedEmails);
  return email ? { email: email.email, email_verified: true } : {};
}

function isAbsoluteUriWithoutFragment(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) && !value.includes('#') && URL.canParse(value);
}
