import { UnauthorizedError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';

// RFC 6750 section 2.1: `Authorization: Bearer <b64token>`.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

/** The bearer token of the request, or UnauthorizedError when absent or malformed. */
export function bearerToken(request: FastifyRequest): string {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match?.[1]) throw new UnauthorizedError({ detail: 'missing or malformed bearer token' });
  return match[1];
}
