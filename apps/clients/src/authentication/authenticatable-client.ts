import type { Client } from '../generated/prisma/client.js';

/**
 * A client as client authentication sees it: a stored record (pre-registered or dynamic) or
 * one built from a client ID metadata document, which has no record (`id` empty).
 */
export type AuthenticatableClient = Pick<
  Client,
  | 'id'
  | 'clientId'
  | 'name'
  | 'enabled'
  | 'redirectUris'
  | 'scopes'
  | 'grantTypes'
  | 'responseTypes'
  | 'tokenEndpointAuthMethod'
  | 'secretHash'
  | 'requirePkce'
  | 'audience'
  | 'environment'
  | 'isAgent'
  | 'agentScopeModes'
  | 'source'
  | 'jwks'
  | 'jwksUri'
  | 'postLogoutRedirectUris'
  | 'backchannelLogoutUri'
  | 'backchannelLogoutSessionRequired'
  | 'requirePushedAuthorizationRequests'
  | 'dpopBoundAccessTokens'
  | 'idTokenSignedResponseAlg'
>;
