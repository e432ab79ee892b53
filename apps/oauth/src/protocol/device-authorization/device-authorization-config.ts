/** The device authorization grant's settings (docs/device-grant.md #1, #4, #5). */
export interface DeviceAuthorizationConfig {
  /** DEVICE_CODE_TTL: expires_in of both codes, 600 s by default. */
  codeTtlSeconds: number;
  /** DEVICE_POLLING_INTERVAL: the interval a device starts with, 5 s by default. */
  intervalSeconds: number;
  /** DEVICE_USER_CODE_ATTEMPTS: entries of one user code before it is refused. */
  userCodeAttempts: number;
  /** DEVICE_AUTHORIZATION_CLIENT_RATE_LIMIT per DEVICE_AUTHORIZATION_CLIENT_RATE_WINDOW; 0 when off. */
  clientRequests: number;
  clientWindowSeconds: number;
}

/** RFC 8628 section 3.5: each slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_SECONDS = 5;

export { DEVICE_CODE_GRANT_TYPE as DEVICE_CODE_GRANT } from '@authz/shared/protocol';
