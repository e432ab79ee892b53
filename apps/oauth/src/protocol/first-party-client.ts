import type { AuthenticatedClient } from './client-authentication.js';

/**
 * DECISIONS.md #2: the reserved public client of first-party login (`/auth/login`). Its
 * tokens carry it as client_id and, having no audience list, as aud (spec 2.5). It may use
 * the refresh_token grant only and holds no secret.
 */
export const FIRST_PARTY_CLIENT_ID = 'authz-first-party';

export const FIRST_PARTY_CLIENT: AuthenticatedClient = {
  clientId: FIRST_PARTY_CLIENT_ID,
  grantTypes: ['refresh_token'],
  audience: FIRST_PARTY_CLIENT_ID,
};
