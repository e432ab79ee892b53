import type { FastifyInstance, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Callable from browser-based clients of any origin, without credentials (cookies). */
    cors?: boolean;
  }
  interface FastifyInstance {
    /** Answers the CORS preflight (OPTIONS) of `url` for the given methods. */
    corsPreflight(url: string, methods: HTTPMethods[]): void;
  }
}

/** Headers a browser client may send: credentials (Basic, Bearer) and the form or JSON type. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, DPoP';
/** Response headers a browser client may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'WWW-Authenticate, Retry-After, X-Request-Id, DPoP-Nonce';
/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/**
 * CORS (Fetch standard) for the endpoints browser-based clients call directly: token,
 * revocation, UserInfo, discovery and JWKS (OAuth 2.1 section 7.3: SPAs are public clients).
 * `Access-Control-Allow-Origin: *` and never `Allow-Credentials`: these endpoints take
 * credentials in headers or the body, never cookies, so any origin may call them and no
 * cookie-authenticated route is ever opened cross-origin.
 */
export const corsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'corsPreflight',
      function corsPreflight(this: FastifyInstance, url: string, methods: HTTPMethods[]) {
        this.options(url, { config: { cors: true, rateLimit: false } }, async (_request, reply) =>
          reply
            .code(204)
            .header('access-control-allow-methods', methods.join(', '))
            .header('access-control-allow-headers', ALLOWED_HEADERS)
            .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
            .send(),
        );
      },
    );
    // A callback hook: an async one costs a promise on every response (docs/performance.md #5).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.routeOptions.config.cors) {
        reply.header('access-control-allow-origin', '*');
        reply.header('access-control-expose-headers', EXPOSED_HEADERS);
        // The resource is meant to be read cross-origin (helmet's default is same-site).
        reply.header('cross-origin-resource-policy', 'cross-origin');
      }
      done(null, payload);
    });
  },
  { name: 'cors', dependencies: ['security-headers'] },
);
