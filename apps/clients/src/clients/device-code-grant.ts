import { DEVICE_CODE_GRANT_TYPE } from '@authz/shared/protocol';

/**
 * RFC 8628 (docs/device-grant.md #8): a client may hold the device_code grant. The device never
 * receives a redirect, so a client whose only user grant it is needs no redirect URI and no
 * response type; its refresh_token grant stands on it as on authorization_code.
 */
export const DEVICE_CODE_GRANT = DEVICE_CODE_GRANT_TYPE;

/**
 * The response types a new client gets when it names none: `code` as before, except for a
 * device client without authorization_code, which never uses the authorization endpoint.
 */
export function defaultResponseTypes(grantTypes: readonly string[]): string[] {
  const deviceOnly = grantTypes.includes(DEVICE_CODE_GRANT) && !grantTypes.includes('authorization_code');
  return deviceOnly ? [] : ['code'];
}
