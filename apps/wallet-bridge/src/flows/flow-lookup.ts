import { matchesKeyedHash } from '@authz/shared/crypto';
import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { isIdentifierShaped, type Purpose } from '../requests/presentation-request.js';

type Deps = Pick<Registry, 'requests' | 'secretHashKey'>;

/**
 * The flow a browser polls: found by its flow id (docs/wallet.md #17, never the transport
 * handle), of the expected purpose, and presented with the binder cookie its start set
 * (compared in constant time on the keyed hashes). Anything else is undefined, which every
 * caller turns into the one uniform refusal.
 */
export async function findBoundFlow(
  deps: Deps,
  flowId: string,
  binder: string,
  purpose: Purpose,
): Promise<PresentationRequest | undefined> {
  if (!isIdentifierShaped(flowId) || binder === '') return undefined;
  const request = await deps.requests.findByFlowId(flowId);
  if (!request || request.purpose !== purpose) return undefined;
  return isBoundTo(deps, request, binder) ? request : undefined;
}

/** The binder cookie value against the flow's stored keyed hash, in constant time. */
export function isBoundTo(
  deps: Pick<Registry, 'secretHashKey'>,
  request: PresentationRequest,
  binder: string,
): boolean {
  return binder !== '' && matchesKeyedHash(deps.secretHashKey, `wallet-binder:${binder}`, request.binderHash);
}
