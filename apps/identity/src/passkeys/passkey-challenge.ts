import { keyedHash } from '@authz/shared/crypto';
import type { Redis } from 'ioredis';

/** docs/strong-authentication.md #16: a ceremony's challenge lives 5 minutes and is used once. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 300;

export type PasskeyCeremony =
  | { kind: 'registration'; userId: string }
  | { kind: 'sign-in' }
  // docs/strong-authentication.md #21: a step-up of this one session.
  | { kind: 'step-up'; sessionId: string };

export interface PasskeyChallengeDeps {
  redis: Redis;
  secretHashKey: Buffer;
}

// The key is a keyed hash of the challenge: Redis never holds a usable challenge by name, and
// the browser's clientDataJSON names the entry to take, so no other handle is needed.
function challengeKey(deps: PasskeyChallengeDeps, challenge: string): string {
  return `identity:passkey-challenge:${keyedHash(deps.secretHashKey, `passkey-challenge:${challenge}`)}`;
}

export async function storePasskeyChallenge(
  deps: PasskeyChallengeDeps,
  challenge: string,
  ceremony: PasskeyCeremony,
): Promise<void> {
  await deps.redis.set(
    challengeKey(deps, challenge),
    JSON.stringify(ceremony),
    'EX',
    PASSKEY_CHALLENGE_TTL_SECONDS,
  );
}

/** Takes the challenge (GETDEL: only one request can win it), whatever comes of the ceremony. */
export async function takePasskeyChallenge(
  deps: PasskeyChallengeDeps,
  challenge: string,
): Promise<PasskeyCeremony | undefined> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(challenge)) return undefined;
  const stored = await deps.redis.getdel(challengeKey(deps, challenge));
  return stored === null ? undefined : (JSON.parse(stored) as PasskeyCeremony);
}

/** The challenge the browser signed, read from clientDataJSON (WebAuthn Level 3 section 5.8.1). */
export function challengeOfClientData(clientDataJson: unknown): string | undefined {
  if (typeof clientDataJson !== 'string') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJson, 'base64url').toString('utf8')) as unknown;
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' ? challenge : undefined;
  } catch {
    return undefined;
  }
}
