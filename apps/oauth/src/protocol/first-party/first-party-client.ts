import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';

/**
 * docs/decisions.md #2: the reserved public client of first-party login (`/auth/login`). Its
 * tokens carry it as client_id and, having no audience list, as aud (interface.md 2.5). It may use
 * the refresh_token grant only and holds no secret. It lives here, not in the clients service.
 */
export const FIRST_PARTY_CLIENT_ID = 'authz-first-party';

export const FIRST_PARTY_CLIENT: AuthenticatedClient = {
  id: '',
  clientId: FIRST_PARTY_CLIENT_ID,
  name: 'First-party login',
  source: 'first_party',
  method: 'none',
  grantTypes: ['refresh_token'],
  scopes: [],
  audienceList: [],
  audience: FIRST_PARTY_CLIENT_ID,
  isAgent: false,
  agentScopeModes: [],
  redirectUris: [],
  requirePkce: true,
  postLogoutRedirectUris: [],
  backchannelLogoutSessionRequired: false,
  idTokenSignedResponseAlg: 'EdDSA',
  requirePushedAuthorizationRequests: false,
  dpopBoundAccessTokens: false,
};
