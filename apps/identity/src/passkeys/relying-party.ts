/**
 * WebAuthn Level 3 section 5.1.4 and 13.4.9: the RP ID is the host of JWT_ISSUER and the only
 * accepted origin is its origin (docs/strong-authentication.md #15).
 */
export interface RelyingParty {
  rpId: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(issuer: string): RelyingParty {
  const url = new URL(issuer);
  return { rpId: url.hostname, origin: url.origin, name: url.host };
}
