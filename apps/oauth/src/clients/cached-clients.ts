import type { ClientCacheLookups, ClientCacheResult } from '../metrics/client-cache-metrics.js';
import type {
  ClientsPort,
  PresentedClientCredentials,
} from '../protocol/client-authentication/clients-port.js';
import type { AuthenticationCache } from './authentication-cache.js';

/**
 * The clients service with successful authentications cached (docs/tokens.md #16), each
 * authentication counted by how it was answered (`client_cache_lookups_total`).
 */
export function withAuthenticationCache(
  clients: ClientsPort,
  cache: AuthenticationCache,
  lookups: ClientCacheLookups,
): ClientsPort {
  return {
    async authenticateClient(credentials) {
      let result: ClientCacheResult = 'hit';
      try {
        return await cache.authenticate(credentials, () => {
          result = whyAsked(cache, credentials);
          return clients.authenticateClient(credentials);
        });
      } finally {
        lookups.count(result);
      }
    },
    recordClientUsage: (uses) => clients.recordClientUsage(uses),
    // Not cached: authorization requests are rare next to token requests, and a disabled
    // client must stop starting flows at once (interface.md 3).
    resolveClient: (clientId) => clients.resolveClient(clientId),
  };
}

/** The cache missed, or could not answer (docs/observability.md: client_cache_lookups_total). */
function whyAsked(cache: AuthenticationCache, credentials: PresentedClientCredentials): ClientCacheResult {
  if (!cache.active) return 'unsubscribed';
  return carriesAssertion(credentials) ? 'assertion' : 'miss';
}

/** The cache never keeps answers to private_key_jwt: each assertion is single use (RFC 7523 section 3). */
function carriesAssertion(credentials: PresentedClientCredentials): boolean {
  return credentials.clientAssertion !== undefined || credentials.clientAssertionType !== undefined;
}
