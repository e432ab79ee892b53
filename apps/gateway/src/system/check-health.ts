import { ServingStatus } from '@authz/proto/health/v1/health';
import { isConnected } from '@authz/shared/health';
import { DATA_OWNING_SERVICES } from '@authz/shared/topology';
import type { Redis } from 'ioredis';
import type { Upstreams, UpstreamName } from '../plugins/upstreams.js';

/** docs/decisions.md #23: each dependency answers within 1 s or counts as disconnected. */
export const HEALTH_DEADLINE_MS = 1000;

export type ConnectionState = 'connected' | 'disconnected';

export interface HealthReport {
  status: 'ok' | 'unhealthy';
  timestamp: string;
  services: { database: ConnectionState; cache: ConnectionState };
}

/**
 * interface.md 4.1 /health: the gateway pings Redis itself and asks every data-owning service for
 * its database status; an unreachable service counts as a disconnected database, since
 * nothing then vouches for it.
 */
export async function checkHealth(redis: Redis, upstreams: Upstreams): Promise<HealthReport> {
  const [cache, databases] = await Promise.all([
    isConnected(() => redis.ping(), HEALTH_DEADLINE_MS),
    Promise.all(DATA_OWNING_SERVICES.map(({ name }) => databaseConnected(upstreams, name as UpstreamName))),
  ]);
  const database = databases.every(Boolean);
  return {
    status: cache && database ? 'ok' : 'unhealthy',
    timestamp: new Date().toISOString(),
    services: { database: state(database), cache: state(cache) },
  };
}

async function databaseConnected(upstreams: Upstreams, name: UpstreamName): Promise<boolean> {
  try {
    const answer = await upstreams.health(name).check({}, { timeoutMs: HEALTH_DEADLINE_MS });
    const database = answer.dependencies.find((dependency) => dependency.name === 'database');
    return answer.status !== ServingStatus.UNSPECIFIED && database?.connected === true;
  } catch {
    return false;
  }
}

function state(connected: boolean): ConnectionState {
  return connected ? 'connected' : 'disconnected';
}
