import type { AuthenticatedClient } from './authenticated-client.js';
import type { BasicCredentials } from '../token/token-request.js';

/** What a client presented at an OAuth endpoint (interface.md 5), passed on as received. */
export interface PresentedClientCredentials {
  bodyClientId?: string;
  bodyClientSecret?: string;
  basic?: BasicCredentials;
  /** The requested grant; empty at introspection and revocation (docs/decisions.md #15: API keys). */
  grantType: string;
  /** RFC 7523 section 2.2 (private_key_jwt). */
  clientAssertionType?: string;
  clientAssertion?: string;
  /** Introspection and revocation accept shared-secret authentication only (interface.md 5). */
  sharedSecretOnly: boolean;
}

/** One successful authentication, for the coalesced lastUsedAt (interface.md 2.2, 2.4). */
export interface ClientUse {
  /** The client's record id. */
  id: string;
  apiKeyId?: string;
  /** Epoch milliseconds. */
  usedAt: number;
}

/** What oauth needs from the clients service (docs/decisions.md #6), free of gRPC. */
export interface ClientsPort {
  /** Every failure is an InvalidClientError (docs/decisions.md #21). */
  authenticateClient(credentials: PresentedClientCredentials): Promise<AuthenticatedClient>;
  recordClientUsage(uses: readonly ClientUse[]): Promise<void>;
  /**
   * The enabled client a client_id names, for /oauth/authorize (interface.md 5 resolution order); no
   * credential is checked. NotFoundError when unknown or disabled; InvalidClientError for a
   * CIMD document problem (with a description) or fetch failure.
   */
  resolveClient(clientId: string): Promise<AuthenticatedClient>;
}

/** Collects uses for a later report: never waits, never fails a request. */
export interface ClientUsageLog {
  record(use: ClientUse): void;
}
