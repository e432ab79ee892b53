/** Where a device authorization stands (RFC 8628 section 3.5). */
export type DeviceGrantStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** A device authorization to store: only the keyed hashes of its codes (docs/device-grant.md #3). */
export interface NewDeviceGrant {
  deviceCodeHash: string;
  userCodeHash: string;
  clientId: string;
  clientName: string;
  /** pre_registered, dynamic or cimd (docs/hosted-pages.md #24). */
  clientSource: string;
  /** Space-separated; '' when no scope was asked for. */
  scope: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Seconds the device waits between polls (RFC 8628 section 3.2). */
  interval: number;
}

/** Who approved, from the browser session that approved it (the ID token's session claims). */
export interface DeviceApproval {
  userId: string;
  sessionId: string;
  /** Epoch seconds (OIDC auth_time of that session). */
  authTime: number;
  /** RFC 8176 methods of the approving session (docs/strong-authentication.md #13). */
  amr: string[];
  consentId: string;
}

export interface StoredDeviceGrant extends NewDeviceGrant {
  status: DeviceGrantStatus;
  approval?: DeviceApproval;
}

/** What one poll found: the grant, and whether it came sooner than its interval allows. */
export interface DevicePoll {
  grant: StoredDeviceGrant;
  tooFast: boolean;
}

/** Storage of device authorizations (docs/conventions.md #7; RFC 8628). */
export interface DeviceGrantStore {
  /** Stores the grant; false when its user code is already taken by a live grant. */
  create(grant: NewDeviceGrant): Promise<boolean>;
  findByDeviceCode(deviceCodeHash: string): Promise<StoredDeviceGrant | undefined>;
  /** The live, undecided grant a user code names. */
  findByUserCode(userCodeHash: string): Promise<StoredDeviceGrant | undefined>;
  /** Counts one device authorization of the client within `windowSeconds`; returns the count. */
  countClientRequest(clientId: string, windowSeconds: number): Promise<number>;
  /**
   * Counts one entry of a user code (right or wrong) within `windowSeconds`; returns the count.
   */
  countUserCodeEntry(userCodeHash: string, windowSeconds: number): Promise<number>;
  /**
   * Records a poll at `now` (epoch ms). When a pending grant is polled sooner than its interval
   * after the previous poll, the interval grows by `slowDownSeconds` (RFC 8628 section 3.5).
   */
  poll(deviceCodeHash: string, now: number, slowDownSeconds: number): Promise<DevicePoll | undefined>;
  /** pending -> approved or denied, atomically; false when decided already or gone. */
  decide(deviceCodeHash: string, decision: { approval: DeviceApproval } | { denied: true }): Promise<boolean>;
  /** approved -> redeemed, atomically: of concurrent redemptions exactly one gets true. */
  redeem(deviceCodeHash: string): Promise<boolean>;
}
