import type { FastifyInstance } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';
import { protectedResourceRoute } from './protected-resource.js';
import { UpstreamCache } from './upstream-cache.js';

export interface DiscoveryRoutesOptions {
  upstreams: Upstreams;
  issuer: string;
}

/** interface.md 4.4: discovery documents are public and cacheable for an hour. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=3600';

/** The discovery documents change only when oauth is redeployed with new settings. */
const METADATA_CACHE_MS = 60_000;

/**
 * The JWKS changes when a key is rotated in or retired (docs/tokens.md #7): a new key is
 * published one SIGNING_KEY_RELOAD_INTERVAL_MS (60 s) before it signs, so holding the set
 * for a second here still shows every key before its first token. Retired keys stay
 * published long after their last token, so a second more of them is harmless.
 */
export const JWKS_CACHE_MS = 1000;

const jwksResponse = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty', 'kid', 'alg', 'use'],
        additionalProperties: false,
        // OKP keys (EdDSA) carry crv and x, RSA keys (RS256 ID tokens, docs/tokens.md #34) n and e;
        // no private member (d, p, q, ...) is listed, so none can be serialized.
        properties: {
          kty: { type: 'string' },
          crv: { type: 'string' },
          x: { type: 'string' },
          n: { type: 'string' },
          e: { type: 'string' },
          kid: { type: 'string' },
          alg: { type: 'string' },
          use: { type: 'string' },
        },
      },
    },
  },
} as const;

/** interface.md 4.4: no authentication, CORS for browser-based clients, cacheable. */
export async function discoveryRoutes(app: FastifyInstance, { upstreams, issuer }: DiscoveryRoutesOptions) {
  const metadata = new UpstreamCache(() => upstreams.discovery.getServerMetadata({}), METADATA_CACHE_MS);
  const jwks = new UpstreamCache(
    async () => JSON.parse((await upstreams.keys.getJwks({})).jwksJson) as unknown,
    JWKS_CACHE_MS,
  );
  const json = 'application/json; charset=utf-8';
  // Public, cacheable and served from memory: no per-address budget (docs/security.md #11).
  const config = { cors: true, rateLimit: false } as const;

  // RFC 7517 section 5: the public signing keys; the response schema lets no private member out.
  app.get(
    '/.well-known/jwks.json',
    { config, schema: { response: { 200: jwksResponse } } },
    async (_request, reply) =>
      reply
        .header('cache-control', DISCOVERY_CACHE_CONTROL)
        .type(json)
        .send(await jwks.get()),
  );
  // RFC 8414 section 3: the metadata of this issuer (no path component, so no suffix).
  app.get('/.well-known/oauth-authorization-server', { config }, async (_request, reply) => {
    const { authorizationServerJson } = await metadata.get();
    return reply.header('cache-control', DISCOVERY_CACHE_CONTROL).type(json).send(authorizationServerJson);
  });
  // OpenID Connect Discovery 1.0 section 4.
  app.get('/.well-known/openid-configuration', { config }, async (_request, reply) => {
    const { openidConfigurationJson } = await metadata.get();
    return reply.header('cache-control', DISCOVERY_CACHE_CONTROL).type(json).send(openidConfigurationJson);
  });
  protectedResourceRoute(app, issuer, DISCOVERY_CACHE_CONTROL);
  for (const url of [
    '/.well-known/jwks.json',
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
  ]) {
    app.corsPreflight(url, ['GET']);
  }
}
