import { NotFoundError, toApiWire } from '@authz/shared/errors';
import type { FastifyReply } from 'fastify';

/**
 * The 404 of an unknown route, whatever error format the route otherwise uses: while wallet
 * federation is off (or unusable) its routes are indistinguishable from absent ones
 * (docs/decisions.md #25).
 */
export function sendBareNotFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').send(toApiWire(new NotFoundError()));
}
