import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { withClientAuthFailureBudget } from './client-auth-failures.js';
import type { FormFields } from './form-body.js';

export interface RevokeRouteOptions {
  upstreams: Upstreams;
  /** invalid_client answers per address (docs/security.md #11). */
  authFailureBudget: RateLimitBudget;
}

const REVOKE_PATH = '/oauth/revoke';

/**
 * RFC 7009 section 2: token revocation. interface.md 4.3: 200 with an empty body for any token, known
 * or not; only a failed client authentication is refused (401 invalid_client). Browser-based
 * clients may call it (CORS), like the token endpoint.
 */
export async function revokeRoute(
  app: FastifyInstance,
  { upstreams, authFailureBudget }: RevokeRouteOptions,
) {
  app.corsPreflight(REVOKE_PATH, ['POST']);
  app.post<{ Body: FormFields }>(
    REVOKE_PATH,
    {
      // Limited per client by oauth, not per address (docs/security.md #11).
      config: { cors: true, errorFormat: 'oauth', authChallenge: 'Basic', rateLimit: 'per-client' },
      schema: { response: { 200: { type: 'null' } } },
    },
    async (request, reply) => {
      const basic = parseBasicCredentials(request.headers.authorization);
      await withClientAuthFailureBudget(request, authFailureBudget, () =>
        upstreams.tokens.revoke({
          parameters: Array.isArray(request.body) ? request.body : [],
          ...(basic ? { basic } : {}),
          origin: requestOrigin(request),
        }),
      );
      return noStore(reply).code(200).send();
    },
  );
}
