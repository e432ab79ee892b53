import type { Actor, IntrospectResponse } from '@authz/proto/oauth/v1/oauth';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { withClientAuthFailureBudget } from './client-auth-failures.js';
import type { FormFields } from './form-body.js';

export interface IntrospectRouteOptions {
  upstreams: Upstreams;
  /** invalid_client answers per address (docs/security.md #11). */
  authFailureBudget: RateLimitBudget;
}

/** RFC 8693 section 4.1 `act`, nested as deep as oauth ever mints (docs/agents.md #5). */
const ACTOR_DEPTH = 5;

function actorSchema(depth: number): Record<string, unknown> {
  return {
    type: 'object',
    required: ['sub'],
    additionalProperties: false,
    properties: {
      sub: { type: 'string' },
      iss: { type: 'string' },
      ...(depth > 1 ? { act: actorSchema(depth - 1) } : {}),
    },
  };
}

/** interface.md 4.3 introspection response: nothing beyond these members ever leaves. */
const introspectionResponse = {
  type: 'object',
  required: ['active'],
  additionalProperties: false,
  properties: {
    active: {
      type: 'boolean',
      description: 'Whether the token is valid now; when false, nothing else is said.',
    },
    sub: { type: 'string', description: 'The user id, or the client id for client_credentials tokens.' },
    client_id: { type: 'string', description: 'The client the token was issued to.' },
    scope: { type: 'string', description: 'Space-separated scopes, when the token has any.' },
    aud: {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      description: 'The audience exactly as in the token: one string or a list.',
    },
    iss: { type: 'string' },
    exp: { type: 'integer', description: 'Expiry, epoch seconds.' },
    iat: { type: 'integer', description: 'Issue time, epoch seconds.' },
    token_type: {
      type: 'string',
      description:
        '`Bearer` for an access token, `DPoP` for a DPoP-bound one, `refresh_token` for a refresh token.',
    },
    cnf: {
      type: 'object',
      required: ['jkt'],
      additionalProperties: false,
      properties: { jkt: { type: 'string' } },
      description: 'A DPoP-bound access token (RFC 9449 section 6.2): the thumbprint of its key.',
    },
    acr: { type: 'string', description: 'A user token: the authentication context class (OIDC Core 2).' },
    amr: {
      type: 'array',
      items: { type: 'string' },
      description: 'A user token: the RFC 8176 authentication methods.',
    },
    auth_time: { type: 'integer', description: 'A user token: when the user authenticated, epoch seconds.' },
    act: {
      ...actorSchema(ACTOR_DEPTH),
      description: 'A delegated token (RFC 8693 section 4.1): who acts, nested for a chain of actors.',
    },
  },
} as const;

/**
 * RFC 7662 section 2: token introspection for resource servers, which call it server to
 * server; so, unlike revocation, no CORS. oauth decides everything; this translates HTTP.
 */
export async function introspectRoute(
  app: FastifyInstance,
  { upstreams, authFailureBudget }: IntrospectRouteOptions,
) {
  app.post<{ Body: FormFields }>(
    '/oauth/introspect',
    {
      // Limited per client by oauth, not per address (docs/security.md #11).
      config: { errorFormat: 'oauth', authChallenge: 'Basic', rateLimit: 'per-client' },
      schema: { response: { 200: introspectionResponse } },
    },
    async (request, reply) => {
      const basic = parseBasicCredentials(request.headers.authorization);
      const response = await withClientAuthFailureBudget(request, authFailureBudget, () =>
        upstreams.tokens.introspect({
          parameters: Array.isArray(request.body) ? request.body : [],
          ...(basic ? { basic } : {}),
          origin: requestOrigin(request),
        }),
      );
      // RFC 7662 section 2.2 answers about credentials: never cached (RFC 6749 section 5.1).
      noStore(reply);
      return introspectionBody(response);
    },
  );
}

function introspectionBody({ active, token }: IntrospectResponse): Record<string, unknown> {
  if (!active || !token) return { active: false };
  return {
    active: true,
    sub: token.sub,
    client_id: token.clientId,
    ...(token.scope === undefined ? {} : { scope: token.scope }),
    aud: token.aud.case === 'audiences' ? token.aud.value.values : token.aud.value,
    iss: token.iss,
    exp: Number(token.exp),
    iat: Number(token.iat),
    token_type: token.tokenType,
    ...(token.cnfJkt === undefined ? {} : { cnf: { jkt: token.cnfJkt } }),
    // RFC 8693 section 4.1: a delegated token is reported with its actors (docs/agents.md #8).
    ...(token.act ? { act: actorJson(token.act) } : {}),
    // docs/strong-authentication.md #13: how the user authenticated, for a user's token.
    ...(token.acr === undefined ? {} : { acr: token.acr }),
    ...(token.amr.length > 0 ? { amr: token.amr } : {}),
    ...(token.authTime === undefined ? {} : { auth_time: Number(token.authTime) }),
  };
}

function actorJson({ sub, iss, act }: Actor): Record<string, unknown> {
  return { sub, ...(iss === undefined ? {} : { iss }), ...(act ? { act: actorJson(act) } : {}) };
}
