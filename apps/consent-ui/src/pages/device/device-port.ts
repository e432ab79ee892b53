import type { RequestOrigin } from '../sign-in/identity-port.js';

/** What the device pages need of the oauth service's DeviceAuthorizationService (interface.md 4.13). */

export interface DeviceConsent {
  clientId: string;
  clientName: string;
  /** pre_registered, dynamic or cimd; anything but pre_registered is unverified (docs/hosted-pages.md #24). */
  clientSource: string;
  scopes: string[];
}

export interface DevicePort {
  /** NotFoundError for any code that is not live and undecided; RateLimitedError when entered too often. */
  enterUserCode(request: { userCode: string; origin: RequestOrigin }): Promise<string>;
  /** NotFoundError for an unknown, used, expired or another session's handle, or a decided device. */
  getDeviceConsent(request: { handle: string; sessionToken: string }): Promise<DeviceConsent>;
  decideDeviceConsent(request: {
    handle: string;
    sessionToken: string;
    allow: boolean;
    origin: RequestOrigin;
  }): Promise<{ approved: boolean }>;
}
