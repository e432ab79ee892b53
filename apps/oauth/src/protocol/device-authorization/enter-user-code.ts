import { keyedHash } from '@authz/shared/crypto';
import { NotFoundError, RateLimitedError } from '@authz/shared/errors';
import type { Registry } from '../../registry.js';
import { normalizeUserCode } from './user-code.js';

type Deps = Pick<Registry, 'config' | 'deviceGrants' | 'deviceVerifications' | 'deviceAuthorization'>;

/**
 * POST /ui/device (interface.md 4.13, RFC 8628 section 3.3): the user code the person typed,
 * case and dashes aside. A live, undecided one opens a pending device verification, whose
 * handle the sign-in and resume pages take; anything else is the one NotFoundError, so the page
 * says the same for a mistyped, unknown, used or expired code (docs/device-grant.md #4).
 */
export async function enterUserCode(deps: Deps, typed: string): Promise<string> {
  const normalized = normalizeUserCode(typed);
  if (normalized === undefined) throw wrongCode('malformed user code');
  const userCodeHash = keyedHash(deps.config.secretHashKey, normalized);
  // RFC 8628 section 5.1: besides the gateway's per-address budget, each code takes only so
  // many entries, so a guesser spread over many addresses gains nothing on one code.
  const { codeTtlSeconds, userCodeAttempts } = deps.deviceAuthorization;
  if ((await deps.deviceGrants.countUserCodeEntry(userCodeHash, codeTtlSeconds)) > userCodeAttempts) {
    throw new RateLimitedError({ detail: 'user code entered too often' });
  }
  const grant = await deps.deviceGrants.findByUserCode(userCodeHash);
  if (!grant) throw wrongCode('unknown, decided or expired user code');
  return deps.deviceVerifications.create({
    deviceCodeHash: grant.deviceCodeHash,
    clientId: grant.clientId,
    clientName: grant.clientName,
  });
}

function wrongCode(detail: string): NotFoundError {
  return new NotFoundError({ detail });
}
