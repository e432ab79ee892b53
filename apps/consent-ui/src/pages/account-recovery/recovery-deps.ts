import type { Registry } from '../../registry.js';

/** What the account-recovery pages use of the registry. */
export type RecoveryDeps = Pick<Registry, 'links' | 'recovery' | 'recoveryLinks' | 'loginCsrfKey'>;
