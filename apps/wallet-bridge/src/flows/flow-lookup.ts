import { matchesKeyedHash } from '@authz/shared/crypto';
import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { isIdentifierShaped, type Purpose } from '../requests/presentation-request.js';

type Deps = Pick<Registry, 'requests' | 'secretHashKey'>;

/**
 * The flow a browser polls: found by handle, of the expected purpose, and presented with the
 * binder cookie its start set (compared in constant time on the keyed hashes). Anything else is
 * undefined, which every caller turns into the one uniform refusal.
 */
export async function findBoundFlow(
  deps: Deps,
  handle: string,
  binder: string,
  purpose: Purpose,
): Promise<PresentationRequest | undefined> {
  if (!isIdentifierShaped(handle) || binder === '') return undefined;
  const request = await deps.requests.findByHandle(handle);
  if (!request || request.purpose !== purpose) return undefined;
  return matchesKeyedHash(deps.secretHashKey, `wallet-binder:${binder}`, request.binderHash)
    ? request
    : undefined;
}
