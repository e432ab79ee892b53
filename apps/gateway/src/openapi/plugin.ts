import { readFileSync } from 'node:fs';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorSchemas, securitySchemes, tags } from './components.js';
import { operations } from './operations/index.js';
import { documentRoutes } from './transform.js';

export const OPENAPI_VERSION = '3.1.0';

export interface OpenApiPluginOptions {
  /** JWT_ISSUER: the server every path is relative to. */
  issuer: string;
}

/**
 * Collects the routes registered after it into an OpenAPI 3.1 document (docs/openapi.md), so it
 * is registered before every route. The route schemas give what is validated and sent; the
 * operations in operations/ add what a developer needs beyond them.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, { issuer }: OpenApiPluginOptions) => {
    await app.register(swagger, {
      openapi: document(issuer),
      transform: documentRoutes(operations),
    });
  },
  { name: 'openapi' },
);

/** The document's own parts; the paths come from the routes. */
function document(issuer: string): FastifyDynamicSwaggerOptions['openapi'] {
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'authz-server gateway',
      version: packageVersion(),
      description:
        'The HTTP interface of an OAuth 2.1 / OpenID Connect authorization server: the OAuth and OpenID ' +
        'Connect endpoints, discovery, first-party accounts, the developer API for OAuth clients, consents ' +
        'and the wallet transport. JSON APIs answer errors with the ApiError envelope, OAuth endpoints with ' +
        'the OAuthError body. Responses are `Cache-Control: no-store` unless said otherwise. Every route ' +
        'but /health and /metrics is rate-limited per IP (429 with Retry-After). The hosted HTML pages ' +
        'under /ui/ are not described here.',
    },
    servers: [{ url: issuer, description: 'The issuer; every path is relative to it.' }],
    tags,
    // The schemas are plain JSON Schema, which openapi-types spells more narrowly.
    components: { schemas: errorSchemas, securitySchemes } as never,
  };
}

/** info.version: the gateway package's version (package.json sits two levels above src/openapi and dist/openapi). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
