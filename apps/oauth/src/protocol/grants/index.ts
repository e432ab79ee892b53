import * as clientCredentials from './client-credentials.js';
import type { Grant } from './grant.js';
import * as refreshToken from './refresh-token.js';

export type { Grant, GrantRequest } from './grant.js';

/** The token endpoint's grants by grant_type (CONVENTIONS.md #3): one line per grant. */
export const grants: ReadonlyMap<string, Grant> = new Map(
  [refreshToken, clientCredentials].map((grant) => [grant.grantType, grant]),
);
