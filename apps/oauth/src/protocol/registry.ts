import type { Logger } from '@authz/shared/logger';
import type { KeyRing } from '../keys/key-ring.js';
import type { AuthorizationCodeStore } from './authorization-code/authorization-code-store.js';
import type { ConsentPrompt, HandleStore, PendingAuthorization } from './authorize/handle-store.js';
import type { ClientsPort, ClientUsageLog } from './client-authentication/clients-port.js';
import type { ConsentStore } from './consent/consent-store.js';
import type { AuditPort } from './delegation/audit-port.js';
import type { AccessTokenDenyList } from './access-token/deny-list.js';
import type { EnterpriseAssertions } from './id-jag/enterprise-port.js';
import type { IdentityPort } from './identity-port.js';
import type { RefreshTokenStore } from './refresh-token/refresh-token-store.js';

export interface TokenConfig {
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  secretHashKey: Buffer;
}

/** Everything the protocol logic may use; each feature picks what it needs (docs/conventions.md #6). */
export interface Registry {
  config: TokenConfig;
  keys: Pick<KeyRing, 'signingKey' | 'verificationKey'>;
  refreshTokens: RefreshTokenStore;
  denyList: AccessTokenDenyList;
  identity: IdentityPort;
  /** Client authentication by the clients service, cached (docs/tokens.md #16), and resolution. */
  clients: Pick<ClientsPort, 'authenticateClient' | 'resolveClient'>;
  /** Uses for the coalesced lastUsedAt (docs/tokens.md #18). */
  clientUsage: ClientUsageLog;
  consents: ConsentStore;
  authorizationCodes: AuthorizationCodeStore;
  /** Authorizations waiting for sign-in (interface.md 2.6). */
  pendingAuthorizations: HandleStore<PendingAuthorization>;
  /** Authorizations waiting for the consent decision. */
  consentPrompts: HandleStore<ConsentPrompt>;
  /** Delegations are recorded in identity's audit log (docs/identity.md #14). */
  audit: AuditPort;
  /** ID-JAG acceptance; undefined while ENTERPRISE_ASSERTION_ENABLED is off. */
  enterprise: EnterpriseAssertions | undefined;
  log: Logger;
}
