import type { FastifyInstance } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';

export interface DiscoveryRoutesOptions {
  upstreams: Upstreams;
}

/** Spec 4.4: discovery documents are public and cacheable for an hour. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=3600';

const jwksResponse = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty', 'crv', 'x', 'kid', 'alg', 'use'],
        additionalProperties: false,
        properties: {
          kty: { type: 'string' },
          crv: { type: 'string' },
          x: { type: 'string' },
          kid: { type: 'string' },
          alg: { type: 'string' },
          use: { type: 'string' },
        },
      },
    },
  },
} as const;

export async function discoveryRoutes(app: FastifyInstance, { upstreams }: DiscoveryRoutesOptions) {
  // RFC 7517 section 5: the public signing keys; the response schema lets no private member out.
  app.get(
    '/.well-known/jwks.json',
    { schema: { response: { 200: jwksResponse } } },
    async (_request, reply) => {
      const { jwksJson } = await upstreams.keys.getJwks({});
      return reply
        .header('cache-control', DISCOVERY_CACHE_CONTROL)
        .type('application/json; charset=utf-8')
        .send(JSON.parse(jwksJson) as unknown);
    },
  );
}
