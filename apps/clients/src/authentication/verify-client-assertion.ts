import { CLIENT_ASSERTION_SIGNING_ALGORITHMS } from '@authz/shared/protocol';
import { jwtVerify, type JWTPayload } from 'jose';
import type { Registry } from '../registry.js';
import type { AuthenticatableClient } from './authenticatable-client.js';
import { claimAssertionJti } from './assertion-replay.js';
import { rejected } from './presented-credentials.js';

export type AssertionDeps = Pick<Registry, 'redis' | 'keySets' | 'assertionAudience'>;

/** Accepted clock skew between the client and this server. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** An assertion may not live longer than this (exp - now): it is a one-request credential. */
const MAX_ASSERTION_LIFETIME_SECONDS = 300;

/**
 * RFC 7523 section 3 (with RFC 7521 section 5.2): the assertion is signed by one of the
 * client's registered keys with an asymmetric algorithm; iss = sub = client_id; aud is this
 * issuer; exp is present, not past and at most five minutes ahead; a jti is present and used
 * once. Any failure is the bare invalid_client (docs/decisions.md #21).
 */
export async function verifyClientAssertion(
  deps: AssertionDeps,
  client: AuthenticatableClient,
  assertion: string,
  now = Date.now(),
): Promise<void> {
  const keySet = deps.keySets.forClient(client);
  if (!keySet) throw rejected('no usable key set registered');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, keySet, {
      issuer: client.clientId,
      subject: client.clientId,
      algorithms: [...CLIENT_ASSERTION_SIGNING_ALGORITHMS],
      requiredClaims: ['exp', 'jti'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    }));
  } catch (error) {
    throw rejected(`client_assertion rejected: ${(error as Error).message}`);
  }
  // draft-ietf-oauth-rfc7523bis, updating RFC 7523 section 3: the issuer alone, as a string.
  // An endpoint URL or an array would accept an assertion made for another server's use.
  if (payload.aud !== deps.assertionAudience) throw rejected('client_assertion aud is not the issuer');
  const nowSeconds = Math.floor(now / 1000);
  const exp = payload.exp!;
  if (exp - nowSeconds > MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) {
    throw rejected('client_assertion lives too long');
  }
  if (payload.iat !== undefined && payload.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) {
    throw rejected('client_assertion issued in the future');
  }
  const jti = payload.jti!;
  if (typeof jti !== 'string' || jti === '' || jti.length > 255)
    throw rejected('client_assertion jti malformed');
  const ttl = exp - nowSeconds + CLOCK_TOLERANCE_SECONDS;
  if (!(await claimAssertionJti(deps.redis, client.clientId, jti, ttl))) {
    throw rejected('client_assertion jti replayed');
  }
}
