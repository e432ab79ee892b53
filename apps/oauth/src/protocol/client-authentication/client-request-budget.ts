/**
 * Requests per authenticated client at the token, introspection and revocation endpoints
 * (docs/security.md #11). Counted after authentication, so nobody but the client spends its
 * budget.
 */
export interface ClientRequestBudget {
  /** Counts one request of `clientId`; throws RateLimitedError (with Retry-After) when over. */
  consume(clientId: string): Promise<void>;
}
