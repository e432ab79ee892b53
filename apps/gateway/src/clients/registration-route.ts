import type { RegisterClientResponse } from '@authz/proto/clients/v1/clients';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';

export interface RegistrationRouteOptions {
  upstreams: Upstreams;
  /** interface.md 8: the per-IP budget shared with POST /api/clients/ and regenerate-secret. */
  registerClientBudget: RateLimitBudget;
}

const strings = { type: 'array', items: { type: 'string' } } as const;

// RFC 7591 section 3.2.1.
const registrationResponse = {
  type: 'object',
  required: [
    'client_id',
    'client_id_issued_at',
    'redirect_uris',
    'token_endpoint_auth_method',
    'grant_types',
    'response_types',
    'is_agent',
  ],
  additionalProperties: false,
  properties: {
    client_id: { type: 'string', description: 'The new client id.' },
    client_secret: {
      type: 'string',
      description: 'The secret, shown this once; client_secret_basic and client_secret_post only.',
    },
    client_id_issued_at: { type: 'integer', description: 'Epoch seconds.' },
    client_secret_expires_at: { type: 'integer', description: '0: the secret does not expire.' },
    redirect_uris: strings,
    token_endpoint_auth_method: { type: 'string' },
    grant_types: strings,
    response_types: strings,
    client_name: { type: 'string', description: 'When one was sent.' },
    scope: {
      type: 'string',
      description: 'The scopes registered, space-separated; absent when none is left.',
    },
    jwks: { type: 'object', additionalProperties: true },
    jwks_uri: { type: 'string' },
    is_agent: {
      type: 'boolean',
      description: 'Whether the client registered as an agent (acting for users through token exchange).',
    },
    agent_scope_modes: { type: 'string', description: 'When registered: the agent scope cap.' },
    post_logout_redirect_uris: { ...strings, description: 'When registered (RP-Initiated Logout 1.0).' },
    backchannel_logout_uri: { type: 'string', description: 'When registered (Back-Channel Logout 1.0).' },
    backchannel_logout_session_required: {
      type: 'boolean',
      description: 'With backchannel_logout_uri.',
    },
    id_token_signed_response_alg: {
      type: 'string',
      enum: ['RS256'],
      description: 'When RS256 was registered; absent means the default EdDSA (docs/tokens.md #34).',
    },
    require_pushed_authorization_requests: {
      type: 'boolean',
      enum: [true],
      description: 'When registered true (RFC 9126 section 6); absent means false.',
    },
    dpop_bound_access_tokens: {
      type: 'boolean',
      enum: [true],
      description: 'When registered true (RFC 9449 section 5.2); absent means false.',
    },
  },
} as const;

/**
 * RFC 7591 dynamic client registration, open mode (interface.md 4.3, 5): clients applies every rule
 * to the JSON body as received; errors are RFC 7591 section 3.2.2 bodies.
 */
export async function registrationRoute(
  app: FastifyInstance,
  { upstreams, registerClientBudget }: RegistrationRouteOptions,
) {
  app.post(
    '/oauth/register',
    {
      config: { errorFormat: 'oauth', rateLimit: { bucket: 'register-client', ...registerClientBudget } },
      schema: { response: { 201: registrationResponse } },
    },
    async (request, reply) => {
      const registered = await upstreams.clients.registerClient({
        metadataJson: JSON.stringify(request.body ?? null),
      });
      return noStore(reply)
        .code(201)
        .send({
          client_id: registered.clientId,
          ...(registered.clientSecret === undefined
            ? {}
            : { client_secret: registered.clientSecret, client_secret_expires_at: 0 }),
          client_id_issued_at: Number(registered.clientIdIssuedAt),
          redirect_uris: registered.redirectUris,
          token_endpoint_auth_method: registered.tokenEndpointAuthMethod,
          grant_types: registered.grantTypes,
          response_types: registered.responseTypes,
          ...(registered.clientName === undefined ? {} : { client_name: registered.clientName }),
          ...(registered.scope === undefined ? {} : { scope: registered.scope }),
          ...(registered.jwks === undefined ? {} : { jwks: JSON.parse(registered.jwks) as object }),
          ...(registered.jwksUri === undefined ? {} : { jwks_uri: registered.jwksUri }),
          is_agent: registered.isAgent,
          ...(registered.agentScopeModes === undefined
            ? {}
            : { agent_scope_modes: registered.agentScopeModes }),
          ...logoutMetadata(registered),
          // docs/clients.md #21: echoed when it is not the default, as the logout members are.
          ...(registered.idTokenSignedResponseAlg === 'RS256'
            ? { id_token_signed_response_alg: 'RS256' }
            : {}),
          // docs/par-and-dpop.md #4, #11: echoed when set, as the members above.
          ...(registered.requirePushedAuthorizationRequests
            ? { require_pushed_authorization_requests: true }
            : {}),
          ...(registered.dpopBoundAccessTokens ? { dpop_bound_access_tokens: true } : {}),
        });
    },
  );
}

// interface.md 4.3: the logout members only when registered, so clients that do not use them see
// the response they always did (docs/clients.md #20).
function logoutMetadata(registered: RegisterClientResponse) {
  return {
    ...(registered.postLogoutRedirectUris.length === 0
      ? {}
      : { post_logout_redirect_uris: registered.postLogoutRedirectUris }),
    ...(registered.backchannelLogoutUri === undefined
      ? {}
      : {
          backchannel_logout_uri: registered.backchannelLogoutUri,
          backchannel_logout_session_required: registered.backchannelLogoutSessionRequired,
        }),
  };
}
