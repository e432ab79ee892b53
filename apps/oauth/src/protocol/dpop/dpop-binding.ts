/** What a verified DPoP proof binds issued tokens to (RFC 9449 section 6.1). */
export interface DpopBinding {
  /** The JWK SHA-256 thumbprint of the proof's key (RFC 7638). */
  jkt: string;
}

/** A DPoP proof as received, with the request it must match (RFC 9449 section 4.3). */
export interface PresentedDpopProof {
  /** The DPoP header; empty when none was sent. */
  proof: string;
  method: string;
  /** The request path without its query; htu is the issuer followed by it. */
  path: string;
}

/** RFC 9449 section 5: the token type of what was issued with or without a proof. */
export function tokenTypeOf(binding: DpopBinding | undefined): 'DPoP' | 'Bearer' {
  return binding ? 'DPoP' : 'Bearer';
}
