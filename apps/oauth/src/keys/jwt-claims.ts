import { errors, type JWTHeaderParameters, type JWTPayload } from 'jose';

export interface JwtClaimChecks {
  /** The header's typ, compared as jose compares it (RFC 7515 section 4.1.9: "application/" optional). */
  typ?: string;
  issuer?: string;
  requiredClaims?: readonly string[];
  /** Epoch seconds; now by default. */
  now?: number;
}

/**
 * RFC 7519 section 7.2 steps 9-10 for a verified JWS: the same checks and the same error classes
 * and codes as jose's jwtVerify with these options and no clock tolerance (verify-compact-jws.ts
 * says why jose is not called). Run on every use, also for a signature verified earlier, since
 * "exp" and "nbf" depend on the time.
 */
export function checkJwtClaims(
  header: JWTHeaderParameters,
  payload: JWTPayload,
  { typ, issuer, requiredClaims = [], now = Math.floor(Date.now() / 1000) }: JwtClaimChecks,
): void {
  if (
    typ !== undefined &&
    (typeof header.typ !== 'string' || normalizeTyp(header.typ) !== normalizeTyp(typ))
  ) {
    throw new errors.JWTClaimValidationFailed(
      'unexpected "typ" JWT header value',
      payload,
      'typ',
      'check_failed',
    );
  }
  const present = issuer === undefined ? requiredClaims : [...requiredClaims, 'iss'];
  for (const claim of present) {
    if (!Object.hasOwn(payload, claim)) {
      throw new errors.JWTClaimValidationFailed(
        `missing required "${claim}" claim`,
        payload,
        claim,
        'missing',
      );
    }
  }
  if (issuer !== undefined && payload.iss !== issuer) {
    throw new errors.JWTClaimValidationFailed('unexpected "iss" claim value', payload, 'iss', 'check_failed');
  }
  numericDate(payload, 'iat');
  const nbf = numericDate(payload, 'nbf');
  if (nbf !== undefined && nbf > now) {
    throw new errors.JWTClaimValidationFailed(
      '"nbf" claim timestamp check failed',
      payload,
      'nbf',
      'check_failed',
    );
  }
  const exp = numericDate(payload, 'exp');
  if (exp !== undefined && exp <= now) {
    throw new errors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed');
  }
}

function normalizeTyp(value: string): string {
  const lower = value.toLowerCase();
  return value.includes('/') ? lower : `application/${lower}`;
}

function numericDate(payload: JWTPayload, claim: 'iat' | 'nbf' | 'exp'): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== 'number') {
    throw new errors.JWTClaimValidationFailed(`"${claim}" claim must be a number`, payload, claim, 'invalid');
  }
  return value;
}
