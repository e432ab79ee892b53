import type { SecondFactorStore } from './second-factor-store.js';
import { looksLikeRecoveryCode, recoveryCodeHash } from './recovery-codes.js';
import { matchingTotpStep, openTotpSecret } from './totp.js';

export interface UseSecondFactorCodeDeps {
  secondFactors: Pick<SecondFactorStore, 'findTotp' | 'useTotpStep' | 'useRecoveryCode'>;
  keyEncryptionKey: Buffer;
  secretHashKey: Buffer;
}

export type SecondFactorMethod = 'totp' | 'recovery_code';

/**
 * Spends one second-step code of the user: a current authenticator-app code whose time step
 * is later than the last accepted one (RFC 6238 section 5.2: each code once), or an unused
 * recovery code (docs/strong-authentication.md #3, #4). Undefined when neither: wrong,
 * replayed and used codes are alike. Both writes are conditional, so two requests racing with
 * the same code cannot both spend it.
 */
export async function useSecondFactorCode(
  deps: UseSecondFactorCodeDeps,
  userId: string,
  code: string,
  now = Date.now(),
): Promise<SecondFactorMethod | undefined> {
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const totp = await deps.secondFactors.findTotp(userId);
    if (!totp?.confirmed) return undefined;
    const step = matchingTotpStep(
      openTotpSecret(deps.keyEncryptionKey, userId, totp.secretEncrypted),
      typed,
      now,
    );
    if (step === undefined) return undefined;
    return (await deps.secondFactors.useTotpStep(userId, step)) ? 'totp' : undefined;
  }
  if (!looksLikeRecoveryCode(typed)) return undefined;
  const used = await deps.secondFactors.useRecoveryCode(
    userId,
    recoveryCodeHash(deps.secretHashKey, userId, typed),
    new Date(now),
  );
  return used ? 'recovery_code' : undefined;
}
