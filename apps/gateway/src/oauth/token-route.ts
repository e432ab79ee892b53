import type { FastifyInstance } from 'fastify';
import { dpopProofOf } from '../http/dpop-proof.js';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { withClientAuthFailureBudget } from './client-auth-failures.js';
import type { FormFields } from './form-body.js';

const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

export interface TokenRouteOptions {
  upstreams: Upstreams;
  /** invalid_client answers per address (docs/security.md #11). */
  authFailureBudget: RateLimitBudget;
  metrics: GatewayMetrics;
}

const tokenResponse = {
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type'],
  additionalProperties: false,
  properties: {
    access_token: {
      type: 'string',
      description: 'The access token (a JWT); for a token exchange asking for it, the ID-JAG.',
    },
    refresh_token: {
      type: 'string',
      description: 'With `offline_access` (authorization_code) and on every refresh; rotates on each use.',
    },
    id_token: { type: 'string', description: 'The OpenID Connect ID token, when `openid` was granted.' },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires.' },
    token_type: {
      type: 'string',
      description: '`Bearer`, `DPoP` when a DPoP proof came with the request, `N_A` for an ID-JAG.',
    },
    scope: { type: 'string', description: 'The granted scopes, space-separated; absent when none.' },
    issued_token_type: {
      type: 'string',
      description: 'Token exchange only (RFC 8693): what `access_token` is.',
    },
  },
} as const;

/** RFC 6749 section 3.2: the token endpoint; oauth runs every grant, this translates HTTP. */
export async function tokenRoute(
  app: FastifyInstance,
  { upstreams, metrics, authFailureBudget }: TokenRouteOptions,
) {
  app.post<{ Body: FormFields }>(
    '/oauth/token',
    {
      // CORS: browser-based public clients redeem codes and refresh tokens here (OAuth 2.1 7.3).
      // Limited per client by oauth, not per address (docs/security.md #11).
      config: { errorFormat: 'oauth', authChallenge: 'Basic', cors: true, rateLimit: 'per-client' },
      schema: { response: { 200: tokenResponse } },
    },
    async (request, reply) => {
      const parameters = Array.isArray(request.body) ? request.body : [];
      const basic = parseBasicCredentials(request.headers.authorization);
      const dpop = dpopProofOf(request);
      const { tokens, dpopNonce } = await withClientAuthFailureBudget(request, authFailureBudget, () =>
        upstreams.tokens.token({
          parameters,
          ...(basic ? { basic } : {}),
          origin: requestOrigin(request),
          ...(dpop ? { dpop } : {}),
        }),
      );
      // RFC 9449 section 8.2: the nonce for the client's next proof.
      if (dpopNonce) reply.header('dpop-nonce', dpopNonce);
      const grant = parameters.find((field) => field.name === 'grant_type')?.value ?? 'unknown';
      // RFC 8693 section 2.2.1: a token exchange may issue an ID-JAG rather than an access token.
      const type = tokens!.issuedTokenType === ID_JAG_TOKEN_TYPE ? 'id-jag' : 'access';
      metrics.tokensIssued.inc({ type, grant });
      if (tokens!.refreshToken) metrics.tokensIssued.inc({ type: 'refresh', grant });
      if (tokens!.idToken) metrics.tokensIssued.inc({ type: 'id', grant });
      // The payload is returned, not the reply: an async handler that returns the reply makes
      // Fastify wait on it as a thenable, a listener on the response per request.
      noStore(reply);
      return {
        access_token: tokens!.accessToken,
        ...(tokens!.refreshToken ? { refresh_token: tokens!.refreshToken } : {}),
        ...(tokens!.idToken ? { id_token: tokens!.idToken } : {}),
        expires_in: tokens!.expiresIn,
        token_type: tokens!.tokenType,
        ...(tokens!.scope ? { scope: tokens!.scope } : {}),
        ...(tokens!.issuedTokenType ? { issued_token_type: tokens!.issuedTokenType } : {}),
      };
    },
  );
  app.corsPreflight('/oauth/token', ['POST']);
}
