import { DPOP_SIGNING_ALGORITHMS } from '@authz/shared/protocol';
import type { FastifyInstance } from 'fastify';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * RFC 9728 section 3: the metadata of a resource lives at its origin under the well-known
 * prefix followed by the resource's path. The server's own APIs (developer API, logout,
 * UserInfo) form one protected resource whose identifier is the issuer.
 */
export function protectedResourceMetadataUrl(issuer: string): string {
  const url = new URL(issuer);
  return `${url.origin}${metadataPath(issuer)}`;
}

function metadataPath(issuer: string): string {
  const { pathname } = new URL(issuer);
  return pathname === '/' ? WELL_KNOWN : `${WELL_KNOWN}${pathname}`;
}

/** RFC 9728 section 2: who issues tokens for these APIs and how they are presented. */
export function protectedResourceMetadata(issuer: string): Record<string, unknown> {
  return {
    resource: issuer,
    authorization_servers: [issuer],
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: ['openid', 'profile', 'email'],
    // RFC 6750 section 2.1 header everywhere; section 2.2 form body on POST /oauth/userinfo.
    bearer_methods_supported: ['header', 'body'],
    resource_signing_alg_values_supported: ['EdDSA'],
    resource_name: 'Account, developer and UserInfo APIs',
    // RFC 9728 section 2 and RFC 9449 section 7: DPoP-bound tokens are accepted with proofs of
    // these algorithms, and Bearer tokens too (docs/par-and-dpop.md #12).
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGORITHMS],
    dpop_bound_access_tokens_required: false,
  };
}

/** Serves the metadata document, public and cacheable like the other discovery documents. */
export function protectedResourceRoute(app: FastifyInstance, issuer: string, cacheControl: string): void {
  const body = JSON.stringify(protectedResourceMetadata(issuer));
  const path = metadataPath(issuer);
  // Public and cacheable: no per-address budget (docs/security.md #11).
  app.get(path, { config: { cors: true, rateLimit: false } }, async (_request, reply) =>
    reply.header('cache-control', cacheControl).type('application/json; charset=utf-8').send(body),
  );
  app.corsPreflight(path, ['GET']);
}
