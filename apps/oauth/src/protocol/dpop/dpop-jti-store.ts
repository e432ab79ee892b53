/**
 * RFC 9449 section 11.1: a proof is used once. Its jti is claimed for as long as its iat keeps
 * it acceptable, shared by every replica (docs/par-and-dpop.md #8).
 */
export interface DpopJtiStore {
  /** False when the same key already claimed this jti within `ttlSeconds`. */
  claim(jkt: string, jti: string, ttlSeconds: number): Promise<boolean>;
}
