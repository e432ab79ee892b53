/** What one outbound fetch may reach and cost; the caller builds it from its env. */
export interface OutboundPolicy {
  /** Hard cap on the response body in bytes, whether declared by Content-Length or streamed. */
  maxBytes: number;
  /** One deadline covering DNS, connect, TLS, headers and body. */
  timeoutMs: number;
  /**
   * Test-only (env CIMD_ALLOW_INSECURE_LOOPBACK): also accept http: URLs whose host is 127.0.0.1,
   * localhost or [::1], and let connections reach 127.0.0.1 and ::1. Everything else stays refused.
   */
  allowInsecureLoopback: boolean;
}
