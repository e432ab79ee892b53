import type { Logger } from '@authz/shared/logger';
import type { KeyRing } from '../keys/key-ring.js';
import type { ClientsPort, ClientUsageLog } from './clients-port.js';
import type { AccessTokenDenyList } from './deny-list.js';
import type { IdentityPort } from './identity-port.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

export interface TokenConfig {
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  secretHashKey: Buffer;
}

/** Everything the protocol logic may use; each feature picks what it needs (CONVENTIONS.md #6). */
export interface Registry {
  config: TokenConfig;
  keys: Pick<KeyRing, 'signingKey' | 'verificationKey'>;
  refreshTokens: RefreshTokenStore;
  denyList: AccessTokenDenyList;
  identity: IdentityPort;
  /** Client authentication by the clients service, cached (docs/tokens.md #16). */
  clients: Pick<ClientsPort, 'authenticateClient'>;
  /** Uses for the coalesced lastUsedAt (docs/tokens.md #18). */
  clientUsage: ClientUsageLog;
  log: Logger;
}
