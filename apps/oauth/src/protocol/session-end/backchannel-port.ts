/** One logout token to deliver: to one client, for one ended session (OIDC Back-Channel Logout 1.0). */
export interface BackchannelLogoutJob {
  clientId: string;
  sessionId: string;
  userId: string;
}

/** The delivery queue, as the fan-out sees it: adding a job never waits for the delivery. */
export interface BackchannelDeliveries {
  enqueue(job: BackchannelLogoutJob): Promise<void>;
}

/** How a delivery attempt ended (the metric's `outcome` label, docs/observability.md). */
export type BackchannelOutcome = 'delivered' | 'retried' | 'failed' | 'rejected' | 'dropped';

/** POSTs `logout_token` to the client's URI through the SSRF-safe outbound client. */
export type LogoutTokenSender = (uri: string, logoutToken: string) => Promise<{ status: number }>;
