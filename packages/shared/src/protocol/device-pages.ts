/**
 * The device authorization grant's hosted pages (interface.md 4.13): where the user enters the
 * user code (the verification_uri), the consent screen, and the two pages that end the flow.
 */
export const DEVICE_PAGE_PATHS = {
  entry: '/ui/device',
  consent: '/ui/device/consent',
  approved: '/ui/device/approved',
  denied: '/ui/device/denied',
} as const;

/** RFC 8628 section 3.4: the device_code grant type at the token endpoint. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
