import { InvalidGrantError } from '@authz/shared/errors';
import { CLIENT_ASSERTION_SIGNING_ALGORITHMS } from '@authz/shared/protocol';
import { decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { ActorChainError, qualifyActor, readActor, type Actor } from '../delegation/actor.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import type { EnterpriseAssertions } from './enterprise-port.js';
import { ID_JAG_TYP } from './id-jag.js';

/** Accepted clock skew between the issuer and this server. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** docs/enterprise-assertions.md #7: an ID-JAG living longer than this is refused. */
const MAX_ASSERTION_LIFETIME_SECONDS = 3600;

/** The claims of an ID-JAG that passed every check. */
export interface VerifiedIdJag {
  iss: string;
  sub: string;
  jti: string;
  /** Epoch seconds. */
  exp: number;
  scope: string[];
  resources: string[];
  email: string;
  /** Each level with its issuer (RFC 8693 section 4.1). */
  act?: Actor;
}

/**
 * draft-ietf-oauth-identity-assertion-authz-grant section 5.1 with RFC 7523 section 3: `typ`
 * oauth-id-jag+jwt; iss listed in ENTERPRISE_TRUSTED_ISSUERS_FILE and the signature by one of
 * its keys (asymmetric only); aud exactly our issuer; client_id the authenticated client; exp
 * present and not past (30 s skew), at most an hour ahead; iat not in the future; sub and jti
 * present; the email the account rule needs, at a domain the issuer may assert. Every failure is the bare invalid_grant (RFC 7523
 * section 3.1); the reason only reaches the logs. The jti is claimed later, by the caller.
 */
export async function verifyIdJag(
  deps: Pick<Registry, 'config'>,
  enterprise: Pick<EnterpriseAssertions, 'issuerKeys' | 'mayAssertEmail'>,
  client: AuthenticatedClient,
  assertion: string,
  now = Date.now(),
): Promise<VerifiedIdJag> {
  const issuer = claimedIssuer(assertion);
  const keys = enterprise.issuerKeys(issuer);
  if (!keys) throw refuse(`untrusted issuer ${issuer}`);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      issuer,
      typ: ID_JAG_TYP,
      algorithms: [...CLIENT_ASSERTION_SIGNING_ALGORITHMS],
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'aud'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    }));
  } catch (error) {
    throw refuse(`ID-JAG rejected: ${(error as Error).message}`);
  }
  checkAudience(payload.aud, deps.config.issuer);
  if (payload.client_id !== client.clientId) throw refuse('client_id is not the authenticated client');
  checkTimes(payload, Math.floor(now / 1000));
  const email = verifiedEmail(payload);
  // docs/enterprise-assertions.md #20: an issuer vouches only for the domains it is bound to.
  if (!enterprise.mayAssertEmail(issuer, email)) throw refuse("email outside the issuer's domains");
  return {
    iss: issuer,
    sub: checkedString(payload.sub, 'sub'),
    jti: checkedString(payload.jti, 'jti'),
    exp: payload.exp!,
    scope: readScope(payload.scope),
    resources: readResources(payload.resource),
    email,
    ...readAct(payload.act, issuer),
  };
}

// Only to pick the key set; nothing from the payload is trusted until the signature verified.
function claimedIssuer(assertion: string): string {
  let payload: JWTPayload;
  try {
    payload = decodeJwt(assertion);
  } catch {
    throw refuse('assertion is not a JWT');
  }
  return checkedString(payload.iss, 'iss');
}

// Draft section 3: aud is the issuer identifier of this server, and only that; an assertion
// also addressed elsewhere could be redeemed twice.
function checkAudience(aud: JWTPayload['aud'], issuer: string): void {
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (audiences.length !== 1 || audiences[0] !== issuer) throw refuse('aud is not this issuer');
}

function checkTimes(payload: JWTPayload, now: number): void {
  if (payload.exp! - now > MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) {
    throw refuse('ID-JAG lives too long');
  }
  if (payload.iat! > now + CLOCK_TOLERANCE_SECONDS) throw refuse('ID-JAG issued in the future');
}

// docs/enterprise-assertions.md #6: only an address the issuer states as verified maps.
function verifiedEmail(payload: JWTPayload): string {
  if (payload.email_verified !== true) throw refuse('email not stated as verified');
  return checkedString(payload.email, 'email');
}

function readScope(scope: unknown): string[] {
  if (scope === undefined) return [];
  if (typeof scope !== 'string') throw refuse('scope is not a string');
  try {
    return parseScope(scope);
  } catch {
    throw refuse('scope is malformed');
  }
}

function readResources(resource: unknown): string[] {
  if (resource === undefined) return [];
  const resources = Array.isArray(resource) ? resource : [resource];
  if (!resources.every((value) => typeof value === 'string' && value !== '')) {
    throw refuse('resource is malformed');
  }
  return [...new Set(resources as string[])];
}

// RFC 8693 section 4.1: an ID-JAG of a delegated token names its actors; they stay named, each
// with the issuer that named it.
function readAct(claim: unknown, issuer: string): { act?: Actor } {
  try {
    const act = readActor(claim);
    return act ? { act: qualifyActor(act, issuer) } : {};
  } catch (error) {
    if (error instanceof ActorChainError) throw refuse(error.message);
    throw error;
  }
}

function checkedString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '' || value.length > 2048) throw refuse(`${name} malformed`);
  return value;
}

/** RFC 7523 section 3.1: invalid_grant, with nothing said about why. */
function refuse(detail: string): InvalidGrantError {
  return new InvalidGrantError({ detail });
}
