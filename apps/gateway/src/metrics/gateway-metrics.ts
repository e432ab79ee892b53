import { createMetricsRegistry } from '@authz/shared/metrics';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The metrics of docs/interface.md 4.1 are counted here, where every login and token response passes
 * (docs/decisions.md #24): registered from the start so they are exported even at zero.
 */
export interface GatewayMetrics {
  registry: Registry;
  /** outcome: success | failure | rate_limited | error. */
  loginAttempts: Counter<'outcome'>;
  /** type: access | refresh | id | id-jag; grant: the grant_type sent, or first_party_login. */
  tokensIssued: Counter<'type' | 'grant'>;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
}

export function createGatewayMetrics(): GatewayMetrics {
  const registry = createMetricsRegistry('gateway');
  return {
    registry,
    loginAttempts: new Counter({
      name: 'login_attempts_total',
      help: 'First-party and hosted-page login attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    tokensIssued: new Counter({
      name: 'tokens_issued_total',
      help: 'Tokens issued by type (access, refresh, id, id-jag) and grant',
      labelNames: ['type', 'grant'],
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Gateway HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}
