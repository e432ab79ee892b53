import type { OperationDocs } from '../types.js';

/** RFC 7591 dynamic client registration (docs/clients.md). */
export const registrationOperations: OperationDocs = {
  'POST /oauth/register': {
    operationId: 'registerClient',
    summary: 'Dynamic client registration',
    description:
      'RFC 7591, open registration: no authentication. Unknown members are ignored; requested scopes beyond what ' +
      'dynamic registration allows are dropped, never refused; the answer says what was registered.',
    tag: 'OAuth',
    body: {
      'application/json': {
        type: 'object',
        properties: {
          redirect_uris: {
            type: 'array',
            items: { type: 'string', format: 'uri' },
            description:
              'Absolute https URLs, or http on a loopback address (127.0.0.1, [::1], localhost); required for ' +
              'the authorization_code grant.',
          },
          token_endpoint_auth_method: {
            type: 'string',
            enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
            default: 'client_secret_basic',
            description:
              'How the client authenticates at the token endpoint; `none` registers a public client.',
          },
          grant_types: {
            type: 'array',
            items: { type: 'string' },
            default: ['authorization_code'],
            description:
              '`authorization_code`, `refresh_token`, `client_credentials`, and, for agents, ' +
              '`urn:ietf:params:oauth:grant-type:token-exchange`.',
          },
          response_types: {
            type: 'array',
            items: { type: 'string', enum: ['code'] },
            default: ['code'],
            description: 'Only `code`.',
          },
          client_name: {
            type: 'string',
            description: 'Shown on the consent page; defaults to the client id.',
          },
          scope: {
            type: 'string',
            description:
              'Space-separated scopes; scopes outside the dynamic registration allowance are dropped, none asks for all of it.',
          },
          jwks: {
            type: 'object',
            description: 'A JWK Set of public keys for private_key_jwt; not together with `jwks_uri`.',
          },
          jwks_uri: {
            type: 'string',
            format: 'uri',
            description: 'Where the JWK Set for private_key_jwt is published.',
          },
          is_agent: {
            type: 'boolean',
            default: false,
            description:
              'Registers an agent, which may act for users through token exchange (self-asserted).',
          },
          agent_scope_modes: {
            type: 'string',
            description:
              'Agents only: space-separated cap of the scopes an agent may be granted; each among the registered scopes.',
          },
        },
      },
    },
    responses: {
      201: { description: 'The registered client (RFC 7591 section 3.2.1). `Cache-Control: no-store`.' },
    },
    errors: {
      400:
        '`invalid_redirect_uri` for any problem with `redirect_uris`; otherwise `invalid_client_metadata`, ' +
        'whose description names each broken rule.',
      415: 'The body is not JSON.',
    },
  },
};
