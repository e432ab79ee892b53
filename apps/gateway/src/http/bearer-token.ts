import { UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import { dpopProofOf, type DpopProofInit } from './dpop-proof.js';

// RFC 6750 section 2.1: `Authorization: Bearer <b64token>`.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
// RFC 9449 section 7.1: `Authorization: DPoP <b64token>`; scheme names are case-insensitive.
const DPOP = /^DPoP ([A-Za-z0-9\-._~+/]+=*)$/i;

/** The bearer token of the request, or UnauthorizedError when absent or malformed. */
export function bearerToken(request: FastifyRequest): string {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match?.[1]) throw new UnauthorizedError({ detail: 'missing or malformed bearer token' });
  return match[1];
}

/** An access token as presented at a protected route: `dpop` is set for the DPoP scheme. */
export interface PresentedAccessToken {
  accessToken: string;
  dpop?: DpopProofInit;
}

/**
 * RFC 9449 section 7: every protected route takes a token with the DPoP scheme and its proof
 * (without one, the proof is empty and oauth refuses it) or with Bearer; oauth decides which a
 * token needs (docs/par-and-dpop.md #12).
 */
export function presentedAccessToken(request: FastifyRequest): PresentedAccessToken {
  const match = DPOP.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return { accessToken: bearerToken(request) };
  const dpop = dpopProofOf(request) ?? {
    proof: '',
    method: request.method,
    path: request.url.split('?')[0]!,
  };
  return { accessToken: match[1], dpop };
}

/** Whether the request named the DPoP scheme, for the challenge of its refusal. */
export function usesDpopScheme(request: FastifyRequest): boolean {
  return /^dpop /i.test(request.headers.authorization ?? '');
}
