import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { RateLimitedError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';

/** docs/strong-authentication.md #6: an mfa_token lives 5 minutes and is used once. */
export const MFA_TOKEN_TTL_SECONDS = 300;
/** docs/strong-authentication.md #7: failed second steps per account and window. */
export const SECOND_STEP_FAILURE_CAP = 5;
export const SECOND_STEP_FAILURE_WINDOW_SECONDS = 900;

export interface MfaChallenge {
  userId: string;
  /** The sign-in is a hosted one: the session also gets a cookie token. */
  browserSession: boolean;
}

export interface MfaChallengeDeps {
  redis: Redis;
  secretHashKey: Buffer;
}

// Only a keyed hash of the mfa_token names the key, so Redis never holds the token itself.
function challengeKey(deps: MfaChallengeDeps, mfaToken: string): string {
  return `identity:mfa:${keyedHash(deps.secretHashKey, `mfa-token:${mfaToken}`)}`;
}

function failuresKey(userId: string): string {
  return `identity:mfa-failures:${userId}`;
}

/** Stores a challenge for a password that was right; answers the mfa_token (64 hex). */
export async function openMfaChallenge(deps: MfaChallengeDeps, challenge: MfaChallenge): Promise<string> {
  const mfaToken = randomHexToken();
  await deps.redis.set(challengeKey(deps, mfaToken), JSON.stringify(challenge), 'EX', MFA_TOKEN_TTL_SECONDS);
  return mfaToken;
}

export async function findMfaChallenge(
  deps: MfaChallengeDeps,
  mfaToken: string,
): Promise<MfaChallenge | undefined> {
  if (!/^[0-9a-f]{64}$/.test(mfaToken)) return undefined;
  const stored = await deps.redis.get(challengeKey(deps, mfaToken));
  return stored === null ? undefined : (JSON.parse(stored) as MfaChallenge);
}

/** Ends the challenge; false when another request ended it first (single use). */
export async function closeMfaChallenge(deps: MfaChallengeDeps, mfaToken: string): Promise<boolean> {
  return (await deps.redis.del(challengeKey(deps, mfaToken))) === 1;
}

/** RateLimitedError while the account has used up its failed second steps (docs/strong-authentication.md #7). */
export async function checkSecondStepBudget(deps: MfaChallengeDeps, userId: string): Promise<void> {
  const key = failuresKey(userId);
  const [failures, ttl] = await Promise.all([deps.redis.get(key), deps.redis.ttl(key)]);
  if (Number(failures ?? 0) >= SECOND_STEP_FAILURE_CAP) {
    throw new RateLimitedError({
      attributes: { retryAfterSeconds: String(Math.max(ttl, 1)) },
      detail: 'second-step failures',
    });
  }
}

export async function countSecondStepFailure(deps: MfaChallengeDeps, userId: string): Promise<void> {
  const key = failuresKey(userId);
  const failures = await deps.redis.incr(key);
  if (failures === 1) await deps.redis.expire(key, SECOND_STEP_FAILURE_WINDOW_SECONDS);
}
