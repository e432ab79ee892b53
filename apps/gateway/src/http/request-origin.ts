import type { FastifyRequest } from 'fastify';

/** Who asked, for audit logs and per-account limits downstream (IP honours TRUST_PROXY). */
export function requestOrigin(request: FastifyRequest): { ip: string; userAgent: string } {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : '' };
}
