import { randomBytes } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { InternalError, RateLimitedError, UnauthorizedClientError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import { authenticateClient } from '../client-authentication/client-authentication.js';
import type { Registry } from '../../registry.js';
import { checkClientScope } from '../scope/check-client-scope.js';
import { formatScope } from '../scope/scope.js';
import { readTokenParameters } from '../token/token-parameters.js';
import type { TokenRequest } from '../token/token-request.js';
import { DEVICE_CODE_GRANT } from './device-authorization-config.js';
import { newUserCode, normalizeUserCode } from './user-code.js';

/** RFC 8628 section 3.2: the device authorization response. */
export interface DeviceAuthorizationResponse {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

type Deps = Pick<
  Registry,
  'config' | 'clients' | 'clientUsage' | 'clientBudget' | 'deviceGrants' | 'deviceAuthorization'
>;

/** A user code collides with a live one about once in 20^8 / live codes: a few tries suffice. */
const USER_CODE_TRIES = 5;

/**
 * interface.md 4.13 POST /oauth/device_authorization (RFC 8628 section 3.1, 3.2): the client
 * authenticates as at the token endpoint, must hold the device_code grant, and may ask only for
 * scopes of its allow-list; then a device code and a user code are issued, stored as keyed hashes.
 */
export async function startDeviceAuthorization(
  deps: Deps,
  request: TokenRequest,
): Promise<DeviceAuthorizationResponse> {
  const parameters = readTokenParameters(request.parameters);
  const client = await authenticateClient(deps, {
    parameters,
    basic: request.basic,
    grantType: DEVICE_CODE_GRANT,
    sharedSecretOnly: false,
  });
  checkDeviceGrantAllowed(client);
  const scope = checkClientScope(client, parameters.get('scope'));
  await checkClientRequests(deps, client);
  const { codeTtlSeconds, intervalSeconds } = deps.deviceAuthorization;
  const deviceCode = randomBytes(32).toString('base64url');
  const userCode = await storeGrant(deps, {
    deviceCodeHash: keyedHash(deps.config.secretHashKey, deviceCode),
    clientId: client.clientId,
    clientName: client.name,
    clientSource: client.source,
    scope: formatScope(scope),
    expiresAt: Date.now() + codeTtlSeconds * 1000,
    interval: intervalSeconds,
  });
  const verificationUri = `${deps.config.issuer}/ui/device`;
  return {
    deviceCode,
    userCode,
    verificationUri,
    verificationUriComplete: `${verificationUri}?${new URLSearchParams({ user_code: userCode }).toString()}`,
    expiresIn: codeTtlSeconds,
    interval: intervalSeconds,
  };
}

// RFC 8628 section 3.1 and RFC 6749 section 5.2: only a client registered for the grant.
function checkDeviceGrantAllowed(client: AuthenticatedClient): void {
  if (!client.grantTypes.includes(DEVICE_CODE_GRANT)) {
    throw new UnauthorizedClientError({ message: `The client may not use ${DEVICE_CODE_GRANT}` });
  }
}

// docs/device-grant.md #5: every client, public ones too, may start only so many device flows,
// as each one stores a grant and a user code that shrinks the space left to guess in.
async function checkClientRequests(deps: Deps, client: AuthenticatedClient): Promise<void> {
  const { clientRequests, clientWindowSeconds } = deps.deviceAuthorization;
  if (clientRequests === 0) return;
  const count = await deps.deviceGrants.countClientRequest(client.clientId, clientWindowSeconds);
  if (count > clientRequests) {
    throw new RateLimitedError({
      detail: `client ${client.clientId} over its device authorization budget`,
      attributes: { retryAfterSeconds: String(clientWindowSeconds) },
    });
  }
}

async function storeGrant(
  deps: Deps,
  grant: Omit<Parameters<Deps['deviceGrants']['create']>[0], 'userCodeHash'>,
): Promise<string> {
  for (let attempt = 0; attempt < USER_CODE_TRIES; attempt += 1) {
    const userCode = newUserCode();
    const userCodeHash = keyedHash(deps.config.secretHashKey, normalizeUserCode(userCode)!);
    if (await deps.deviceGrants.create({ ...grant, userCodeHash })) return userCode;
  }
  throw new InternalError({ detail: 'no free user code' });
}
