import type { FastifyInstance } from 'fastify';
import { DISCOVERY_CACHE_CONTROL } from '../discovery/routes.js';
import { canonicalJson } from './canonical-json.js';

export const OPENAPI_PATH = '/openapi.json';

/** The document as served and as checked in: canonical JSON, the same bytes every time. */
export function openApiDocument(app: FastifyInstance): string {
  return canonicalJson(app.swagger());
}

/**
 * GET /openapi.json: public and cacheable like the discovery documents; CORS so that API clients
 * in a browser can load it. Built once, on the first request (the routes are all known by then).
 */
export async function openApiRoute(app: FastifyInstance) {
  let document: string | undefined;
  // Public and cacheable: no per-address budget (docs/security.md #11).
  app.get(OPENAPI_PATH, { config: { cors: true, rateLimit: false } }, async (_request, reply) => {
    document ??= openApiDocument(app);
    return reply
      .header('cache-control', DISCOVERY_CACHE_CONTROL)
      .type('application/json; charset=utf-8')
      .send(document);
  });
  app.corsPreflight(OPENAPI_PATH, ['GET']);
}
