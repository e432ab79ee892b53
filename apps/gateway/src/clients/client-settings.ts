import type { ClientSettingsSchema } from '@authz/proto/clients/v1/clients';
import type { MessageInitShape } from '@bufbuild/protobuf';

/** The JSON body of create / PATCH, as validated by schemas.ts. */
export interface ClientSettingsBody {
  name?: string;
  description?: string | null;
  redirectUris?: string[];
  scopes?: string[];
  grantTypes?: string[];
  responseTypes?: string[];
  tokenEndpointAuthMethod?: string;
  enabled?: boolean;
  jwks?: Record<string, unknown> | null;
  jwksUri?: string | null;
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean;
  idTokenSignedResponseAlg?: string;
  requirePushedAuthorizationRequests?: boolean;
  dpopBoundAccessTokens?: boolean;
}

/**
 * interface.md 4.7: only the settable fields travel, each only when present (PATCH semantics); any
 * other key (clientId, clientSecret, developerId, unknown ones) is dropped here.
 */
export function toClientSettings(body: ClientSettingsBody): MessageInitShape<typeof ClientSettingsSchema> {
  const list = (values: string[] | undefined) => (values === undefined ? {} : { values });
  const nullable = (value: string | null | undefined) => (value === null ? {} : { value });
  return {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.description === undefined ? {} : { description: nullable(body.description) }),
    ...(body.redirectUris === undefined ? {} : { redirectUris: list(body.redirectUris) }),
    ...(body.scopes === undefined ? {} : { scopes: list(body.scopes) }),
    ...(body.grantTypes === undefined ? {} : { grantTypes: list(body.grantTypes) }),
    ...(body.responseTypes === undefined ? {} : { responseTypes: list(body.responseTypes) }),
    ...(body.tokenEndpointAuthMethod === undefined
      ? {}
      : { tokenEndpointAuthMethod: body.tokenEndpointAuthMethod }),
    ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
    ...(body.jwks === undefined
      ? {}
      : { jwks: nullable(body.jwks === null ? null : JSON.stringify(body.jwks)) }),
    ...(body.jwksUri === undefined ? {} : { jwksUri: nullable(body.jwksUri) }),
    ...(body.postLogoutRedirectUris === undefined
      ? {}
      : { postLogoutRedirectUris: list(body.postLogoutRedirectUris) }),
    ...(body.backchannelLogoutUri === undefined
      ? {}
      : { backchannelLogoutUri: nullable(body.backchannelLogoutUri) }),
    ...(body.backchannelLogoutSessionRequired === undefined
      ? {}
      : { backchannelLogoutSessionRequired: body.backchannelLogoutSessionRequired }),
    ...(body.idTokenSignedResponseAlg === undefined
      ? {}
      : { idTokenSignedResponseAlg: body.idTokenSignedResponseAlg }),
    ...(body.requirePushedAuthorizationRequests === undefined
      ? {}
      : { requirePushedAuthorizationRequests: body.requirePushedAuthorizationRequests }),
    ...(body.dpopBoundAccessTokens === undefined
      ? {}
      : { dpopBoundAccessTokens: body.dpopBoundAccessTokens }),
  };
}
