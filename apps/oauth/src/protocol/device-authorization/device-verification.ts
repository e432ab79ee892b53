/**
 * A user code that was entered on /ui/device and is waiting for the user to sign in: the
 * sign-in page and /ui/resume/{handle} take its handle as they take a pending authorization's
 * (docs/device-grant.md #7).
 */
export interface PendingDeviceVerification {
  deviceCodeHash: string;
  clientId: string;
  clientName: string;
}

/** The device's consent screen, bound to the browser session that was shown it. */
export interface DeviceConsentPrompt {
  deviceCodeHash: string;
  userId: string;
  sessionId: string;
  /** Epoch seconds (OIDC auth_time of that session). */
  authTime: number;
  /** RFC 8176 methods of that session, for the tokens' acr and amr (docs/strong-authentication.md #13). */
  amr: string[];
}
