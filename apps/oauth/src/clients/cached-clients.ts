import type { ClientsPort } from '../protocol/clients-port.js';
import type { AuthenticationCache } from './authentication-cache.js';

/** The clients service with successful authentications cached (docs/tokens.md #16). */
export function withAuthenticationCache(clients: ClientsPort, cache: AuthenticationCache): ClientsPort {
  return {
    authenticateClient: (credentials) =>
      cache.authenticate(credentials, () => clients.authenticateClient(credentials)),
    recordClientUsage: (uses) => clients.recordClientUsage(uses),
    // Not cached: authorization requests are rare next to token requests, and a disabled
    // client must stop starting flows at once (spec 3).
    resolveClient: (clientId) => clients.resolveClient(clientId),
  };
}
