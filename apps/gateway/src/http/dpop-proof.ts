import type { DpopProofSchema } from '@authz/proto/oauth/v1/oauth';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { FastifyRequest } from 'fastify';

export type DpopProofInit = MessageInitShape<typeof DpopProofSchema>;

/**
 * RFC 9449 section 4.1: the request's DPoP header with the method and path the proof must name;
 * oauth checks everything (docs/par-and-dpop.md #6). Node joins a repeated header with ", ",
 * which no compact JWT contains, so two proofs are refused as one malformed proof (section 4.3).
 */
export function dpopProofOf(request: FastifyRequest): DpopProofInit | undefined {
  const header = request.headers.dpop;
  if (header === undefined) return undefined;
  return {
    proof: Array.isArray(header) ? header.join(', ') : header,
    method: request.method,
    path: request.url.split('?')[0]!,
  };
}
