import { keyedHash } from '@authz/shared/crypto';
import {
  AccessDeniedError,
  AuthorizationPendingError,
  ExpiredTokenError,
  InvalidGrantError,
  InvalidRequestError,
  NotFoundError,
  SlowDownError,
} from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { issueCodeTokens } from '../authorization-code/issue-code-tokens.js';
import { DEVICE_CODE_GRANT, SLOW_DOWN_SECONDS } from '../device-authorization/device-authorization-config.js';
import type { DeviceApproval, StoredDeviceGrant } from '../device-authorization/device-grant-store.js';
import type { IdentityUser } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { checkResource } from '../resource/check-resource.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';

/** RFC 8628 section 3.4, 3.5: the device polls with its device code until the user decides. */
export const grantType = DEVICE_CODE_GRANT;
export const parameters = ['device_code'] as const;

// Device codes are 256 random bits, base64url (docs/device-grant.md #3).
const DEVICE_CODE = /^[A-Za-z0-9_-]{43}$/;

export async function handle(deps: Registry, { client, parameters, dpop }: GrantRequest): Promise<TokenSet> {
  const presented = parameters.get('device_code');
  if (presented === undefined) throw new InvalidRequestError({ message: 'device_code is required' });
  const deviceCodeHash = DEVICE_CODE.test(presented)
    ? keyedHash(deps.config.secretHashKey, presented)
    : undefined;
  const found = deviceCodeHash && (await deps.deviceGrants.findByDeviceCode(deviceCodeHash));
  if (!found) throw invalidGrant('unknown or malformed device code');
  checkClientBinding(found, client);
  const now = Date.now();
  const poll = await deps.deviceGrants.poll(found.deviceCodeHash, now, SLOW_DOWN_SECONDS);
  if (!poll) throw invalidGrant('device code gone while polled');
  const approval = checkDecided(poll.grant, poll.tooFast, now);
  // The atomic step: of concurrent redemptions exactly one gets here (single use).
  if (!(await deps.deviceGrants.redeem(found.deviceCodeHash))) throw alreadyUsed();
  const user = await approvingUser(deps, approval);
  const audience = checkResource(client, []);
  const grant = { ...approval, clientId: found.clientId, scope: found.scope, resources: [] };
  const issuedAt = new Date(now);
  // RFC 9449 section 5: a proof at the poll that redeems binds the tokens, as for every grant.
  const { tokens, issued } = await issueCodeTokens(deps, client, grant, user, audience, issuedAt, dpop);
  // docs/device-grant.md #11: recorded as a redeemed grant of the session and consent, so a
  // session end, a consent withdrawal and an account deletion find its tokens and its client.
  await deps.authorizationCodes.saveRedeemed(
    {
      ...grant,
      codeHash: `device:${found.deviceCodeHash}`,
      redirectUri: '',
      codeChallenge: '',
      expiresAt: new Date(found.expiresAt),
    },
    issued,
    issuedAt,
  );
  return tokens;
}

// RFC 6749 section 4.1.3 applied to the device code: only the client it was issued to.
function checkClientBinding(grant: StoredDeviceGrant, client: AuthenticatedClient): void {
  if (grant.clientId !== client.clientId) throw invalidGrant('device code of another client');
}

/** RFC 8628 section 3.5, in order: used, expired, denied, still pending (too fast or not). */
function checkDecided(grant: StoredDeviceGrant, tooFast: boolean, now: number): DeviceApproval {
  if (grant.status === 'redeemed') throw alreadyUsed();
  if (grant.expiresAt <= now) {
    throw new ExpiredTokenError({ message: 'The device code has expired', detail: 'device code expired' });
  }
  if (grant.status === 'denied') {
    throw new AccessDeniedError({ message: 'The user denied the request', detail: 'device grant denied' });
  }
  if (grant.status === 'pending' || !grant.approval) {
    if (tooFast) {
      throw new SlowDownError({
        message: `Poll no more often than every ${grant.interval} seconds`,
        detail: 'device polled faster than its interval',
      });
    }
    throw new AuthorizationPendingError({ detail: 'device grant not decided yet' });
  }
  return grant.approval;
}

// The tokens carry the approving session as their sid: a session ended between the approval and
// the poll (logout, or an account disabled or deleted, docs/admin-api.md #4) would hand out
// tokens of a dead session that no session end revokes (docs/device-grant.md #10).
async function approvingUser(deps: Registry, approval: DeviceApproval): Promise<IdentityUser> {
  try {
    await deps.accounts.requireUserSession(approval.userId, approval.sessionId);
  } catch (error) {
    if (error instanceof NotFoundError) throw invalidGrant('approving session ended');
    throw error;
  }
  try {
    return await deps.identity.getUser(approval.userId);
  } catch (error) {
    if (error instanceof NotFoundError) throw invalidGrant('user no longer exists');
    throw error;
  }
}

function alreadyUsed(): InvalidGrantError {
  return new InvalidGrantError({ message: 'The device code was already used', detail: 'device code reused' });
}

function invalidGrant(detail: string): InvalidGrantError {
  return new InvalidGrantError({ detail });
}
