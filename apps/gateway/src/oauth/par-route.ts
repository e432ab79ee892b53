import type { FastifyInstance } from 'fastify';
import { dpopProofOf } from '../http/dpop-proof.js';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { withClientAuthFailureBudget } from './client-auth-failures.js';
import type { FormFields } from './form-body.js';

export interface ParRouteOptions {
  upstreams: Upstreams;
  /** invalid_client answers per address (docs/security.md #11). */
  authFailureBudget: RateLimitBudget;
}

const PAR_PATH = '/oauth/par';

/** RFC 9126 section 2.2 (interface.md 4.12). */
const pushedResponse = {
  type: 'object',
  required: ['request_uri', 'expires_in'],
  additionalProperties: false,
  properties: {
    request_uri: {
      type: 'string',
      description:
        '`urn:ietf:params:oauth:request_uri:` and a random part: pass it to /oauth/authorize once.',
    },
    expires_in: { type: 'integer', description: 'Seconds the request URI stays usable: 60.' },
  },
} as const;

/**
 * RFC 9126 section 2: pushed authorization requests. The client authenticates as at the token
 * endpoint (limited per client by oauth, docs/security.md #11), so the route is configured
 * like it; oauth validates the request as /oauth/authorize would and stores it.
 */
export async function parRoute(app: FastifyInstance, { upstreams, authFailureBudget }: ParRouteOptions) {
  app.post<{ Body: FormFields }>(
    PAR_PATH,
    {
      // CORS: a browser-based public client may push its requests too (OAuth 2.1 section 7.3).
      config: { errorFormat: 'oauth', authChallenge: 'Basic', cors: true, rateLimit: 'per-client' },
      schema: { response: { 201: pushedResponse } },
    },
    async (request, reply) => {
      const basic = parseBasicCredentials(request.headers.authorization);
      const dpop = dpopProofOf(request);
      const pushed = await withClientAuthFailureBudget(request, authFailureBudget, () =>
        upstreams.authorization.pushAuthorizationRequest({
          parameters: Array.isArray(request.body) ? request.body : [],
          ...(basic ? { basic } : {}),
          origin: requestOrigin(request),
          ...(dpop ? { dpop } : {}),
        }),
      );
      // RFC 9449 section 8.2: the nonce for the client's next proof.
      if (pushed.dpopNonce) reply.header('dpop-nonce', pushed.dpopNonce);
      // RFC 9126 section 2.2: a request URI is a credential of sorts, never cached.
      noStore(reply).code(201);
      return { request_uri: pushed.requestUri, expires_in: pushed.expiresIn };
    },
  );
  app.corsPreflight(PAR_PATH, ['POST']);
}
