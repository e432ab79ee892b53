/**
 * RFC 9449 section 5.1 dpop_signing_alg_values_supported: the asymmetric algorithms a proof may
 * be signed with (docs/par-and-dpop.md #7). `none` and MACs are never accepted (section 4.3).
 */
export { DPOP_SIGNING_ALGORITHMS } from '@authz/shared/protocol';

/** RFC 9449 section 4.3 item 11: how far a proof's iat may be from now, either way, in seconds. */
export const DPOP_IAT_WINDOW_SECONDS = 60;
