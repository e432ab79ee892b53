import type { OperationDocs } from '../types.js';
import { accountRecoveryOperations } from './account-recovery.js';
import { adminOperations } from './admin.js';
import { accountLifecycleOperations } from './account-lifecycle.js';
import { accountOperations } from './accounts.js';
import { consentOperations } from './consents.js';
import { developerOperations } from './developer.js';
import { deviceAuthorizationOperations } from './device-authorization.js';
import { discoveryOperations } from './discovery.js';
import { logoutOperations } from './logout.js';
import { oauthOperations } from './oauth.js';
import { parOperations } from './par.js';
import { registrationOperations } from './registration.js';
import { secondFactorOperations } from './second-factors.js';
import { systemOperations } from './system.js';
import { userInfoOperations } from './userinfo.js';
import { walletOperations } from './wallet.js';

/** Every documented operation, by method and OpenAPI path (types.ts). */
export const operations: OperationDocs = {
  ...systemOperations,
  ...discoveryOperations,
  ...accountOperations,
  ...accountRecoveryOperations,
  ...accountLifecycleOperations,
  ...secondFactorOperations,
  ...oauthOperations,
  ...parOperations,
  ...userInfoOperations,
  ...logoutOperations,
  ...deviceAuthorizationOperations,
  ...registrationOperations,
  ...developerOperations,
  ...consentOperations,
  ...walletOperations,
  ...adminOperations,
};
