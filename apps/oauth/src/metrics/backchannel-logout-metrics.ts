import type { Registry } from 'prom-client';
import { counterByLabel, type CountsByLabel } from './counter-by-label.js';
import type { BackchannelOutcome } from '../protocol/session-end/backchannel-port.js';

export type BackchannelLogoutDeliveries = CountsByLabel<BackchannelOutcome>;

/**
 * `backchannel_logout_deliveries_total{outcome}`: every delivery attempt of a logout token by
 * how it ended: `delivered`, `retried` (failed, another attempt is scheduled), `failed` (the
 * last attempt failed), `rejected` (the client answered 4xx), `dropped` (the client no longer
 * has a back-channel logout URI). Every outcome exported from the start at zero.
 */
export function createBackchannelLogoutDeliveries(registry: Registry): BackchannelLogoutDeliveries {
  const outcomes: BackchannelOutcome[] = ['delivered', 'retried', 'failed', 'rejected', 'dropped'];
  return counterByLabel(registry, {
    name: 'backchannel_logout_deliveries_total',
    help: 'Back-channel logout token deliveries by outcome (delivered, retried, failed, rejected, dropped)',
    label: 'outcome',
    values: outcomes,
  });
}
