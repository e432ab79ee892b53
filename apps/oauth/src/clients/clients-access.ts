import { ClientsService } from '@authz/proto/clients/v1/clients';
import type { GrpcChannel } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { ClientCacheLookups } from '../metrics/client-cache-metrics.js';
import type { ClientsPort } from '../protocol/client-authentication/clients-port.js';
import { clientsOverGrpc } from '../rpc/clients-client.js';
import { AuthenticationCache } from './authentication-cache.js';
import { withAuthenticationCache } from './cached-clients.js';
import {
  clientInvalidationChannel,
  subscribeToClientInvalidations,
  type ClientInvalidationSubscription,
} from './client-invalidation-subscriber.js';
import { ClientUsageReporter } from './client-usage-reporter.js';

export interface ClientsAccessOptions {
  channel: GrpcChannel;
  /** The service's Redis client; the subscription gets a connection of its own from it. */
  redis: Redis;
  redisKeyPrefix: string;
  usageFlushIntervalMs: number;
  /** Counts how each authentication was answered (the service's metrics). */
  cacheLookups: ClientCacheLookups;
  log: Logger;
}

/** oauth's way to the clients service: cached authentication and coalesced usage reports. */
export interface ClientsAccess {
  clients: ClientsPort;
  usage: ClientUsageReporter;
  invalidations: Pick<ClientInvalidationSubscription, 'whenSubscribed'>;
  /** Reports the last uses, then ends the subscription (the channel is the caller's). */
  close(): Promise<void>;
}

export function openClientsAccess(options: ClientsAccessOptions): ClientsAccess {
  const remote = clientsOverGrpc(options.channel.service(ClientsService));
  const cache = new AuthenticationCache();
  const subscription = subscribeToClientInvalidations({
    connection: options.redis.duplicate({
      connectionName: 'oauth-client-invalidations',
      autoResubscribe: false,
    }),
    channel: clientInvalidationChannel(options.redisKeyPrefix),
    cache,
    log: options.log,
  });
  const usage = new ClientUsageReporter({
    send: (uses) => remote.recordClientUsage(uses),
    intervalMs: options.usageFlushIntervalMs,
    log: options.log,
  }).start();
  return {
    clients: withAuthenticationCache(remote, cache, options.cacheLookups),
    usage,
    invalidations: subscription,
    async close() {
      await usage.close();
      await subscription.close();
    },
  };
}
