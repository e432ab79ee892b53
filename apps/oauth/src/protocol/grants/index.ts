import * as authorizationCode from './authorization-code.js';
import * as clientCredentials from './client-credentials.js';
import type { Registry } from '../../registry.js';
import type { Grant } from './grant.js';
import * as refreshToken from './refresh-token.js';
import * as jwtBearer from './rfc7523-jwt-bearer.js';
import * as deviceCode from './rfc8628-device-code.js';
import * as tokenExchange from './rfc8693-token-exchange.js';

export type { Grant, GrantRequest } from './grant.js';

/** The token endpoint's grants by grant_type (docs/conventions.md #3): one line per grant. */
export const grants: ReadonlyMap<string, Grant> = new Map(
  [authorizationCode, refreshToken, clientCredentials, tokenExchange, jwtBearer, deviceCode].map((grant) => [
    grant.grantType,
    grant,
  ]),
);

/** The grants that run with this configuration: what the token endpoint and discovery offer. */
export function enabledGrants(deps: Registry): Grant[] {
  return [...grants.values()].filter((grant) => grant.enabled?.(deps) ?? true);
}
