/**
 * docs/strong-authentication.md #5: the two authentication context classes (OIDC Core 2 `acr`).
 * `mfa` when two factors were used, or a passkey with user verification (something held and
 * something known or been, in one gesture); `password` otherwise.
 */
export const ACR_MFA = 'urn:authz:acr:mfa';
export const ACR_PASSWORD = 'urn:authz:acr:password';

/** Weakest first: a request for one is satisfied by it and everything after it. */
export const ACR_VALUES_SUPPORTED = [ACR_PASSWORD, ACR_MFA] as const;

/** The acr of a session authenticated with the RFC 8176 methods `amr`. */
export function acrOf(amr: readonly string[]): string {
  const passkey = amr.includes('hwk') && amr.includes('user');
  return amr.includes('mfa') || passkey ? ACR_MFA : ACR_PASSWORD;
}

/** Does a session of class `acr` satisfy the requested class `wanted`? Unknown wants are never met. */
export function satisfiesAcr(acr: string, wanted: string): boolean {
  const have = ACR_VALUES_SUPPORTED.indexOf(acr as (typeof ACR_VALUES_SUPPORTED)[number]);
  const need = ACR_VALUES_SUPPORTED.indexOf(wanted as (typeof ACR_VALUES_SUPPORTED)[number]);
  return need !== -1 && have >= need;
}
