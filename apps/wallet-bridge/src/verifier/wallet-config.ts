import type { Logger } from '@authz/shared/logger';
import type { WalletBridgeEnv } from '../config/env.js';
import { readTrustedIssuers, type TrustedCredentialIssuer } from './trusted-issuers.js';
import { loadVerifierProfile, type VerifierProfile } from './verifier-profile.js';

/** Everything a wallet flow needs; absent while the feature is off or unusable. */
export interface WalletConfig {
  profile: VerifierProfile;
  trustedIssuers: TrustedCredentialIssuer[];
  issuer: string;
  requestTtlSeconds: number;
}

/**
 * interface.md 1 item 7, docs/decisions.md #25: wallet federation exists only with the flag on and a usable
 * verifier profile and trusted-issuer list. Anything missing or broken leaves it off (every
 * RPC answers NotFoundError) with one log line naming the problem: it never fails open, and a
 * bad wallet setting does not take password sign-in down with it.
 */
export function loadWalletConfig(env: WalletBridgeEnv, log: Logger): WalletConfig | undefined {
  const settings = env.wallet;
  if (!settings.enabled) return undefined;
  try {
    if (!settings.verifierKeyFile || !settings.verifierCertChainFile) {
      throw new Error('WALLET_VERIFIER_KEY_FILE and WALLET_VERIFIER_CERT_CHAIN_FILE are required');
    }
    if (!settings.trustedIssuersFile) throw new Error('WALLET_TRUSTED_ISSUERS_FILE is required');
    return {
      profile: loadVerifierProfile(settings.verifierKeyFile, settings.verifierCertChainFile),
      trustedIssuers: readTrustedIssuers(settings.trustedIssuersFile),
      issuer: env.issuer,
      requestTtlSeconds: settings.requestTtlSeconds,
    };
  } catch (error) {
    log.error({ reason: (error as Error).message }, 'wallet federation is off: no usable verifier profile');
    return undefined;
  }
}
