import { createRedisTestPrefix, testLogger, testRedisUrl } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthenticatedClient } from '../protocol/client-authentication/authenticated-client.js';
import type { PresentedClientCredentials } from '../protocol/client-authentication/clients-port.js';
import { AuthenticationCache } from './authentication-cache.js';
import {
  clientInvalidationChannel,
  subscribeToClientInvalidations,
  type ClientInvalidationSubscription,
} from './client-invalidation-subscriber.js';

// Against the real Redis, on a channel of this file's own prefix (docs/conventions.md #11).
const channel = clientInvalidationChannel(createRedisTestPrefix());
let publisher: Redis;
const open: ClientInvalidationSubscription[] = [];

beforeAll(() => {
  publisher = new Redis(testRedisUrl());
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((subscription) => subscription.close()));
});

afterAll(async () => {
  await publisher.quit();
});

const credentials = (clientId: string): PresentedClientCredentials => ({
  basic: { clientId, clientSecret: 'secret' },
  grantType: 'client_credentials',
  sharedSecretOnly: false,
});

/** A cache listening on its own connection, plus a counted clients service in front of it. */
async function subscribed() {
  const cache = new AuthenticationCache();
  const connection = new Redis(testRedisUrl(), { autoResubscribe: false });
  const subscription = subscribeToClientInvalidations({ connection, channel, cache, log: testLogger() });
  open.push(subscription);
  await subscription.whenSubscribed();
  const service = vi.fn(async (clientId: string) => ({ clientId }) as AuthenticatedClient);
  const authenticate = (clientId: string) =>
    cache.authenticate(credentials(clientId), () => service(clientId));
  const closed = () => new Promise<void>((resolve) => connection.once('close', () => resolve()));
  return { cache, connection, subscription, service, authenticate, closed };
}

describe('client invalidations (docs/decisions.md #28, docs/clients.md #8)', () => {
  it('names the channel with the prefix written out (ioredis prefixes keys only)', () => {
    expect(clientInvalidationChannel('authz:')).toBe('authz:clients:invalidations');
  });

  it('a message drops the named client and keeps the others', async () => {
    const { cache, service, authenticate } = await subscribed();
    await authenticate('a');
    await authenticate('b');
    expect(cache.size).toBe(2);

    await publisher.publish(channel, JSON.stringify({ clientId: 'a', reason: 'disabled' }));
    await vi.waitFor(() => expect(cache.size).toBe(1));
    await authenticate('b');
    expect(service).toHaveBeenCalledTimes(2);
    await authenticate('a');
    expect(service).toHaveBeenCalledTimes(3);
  });

  it('an unreadable message flushes everything', async () => {
    const { cache, authenticate } = await subscribed();
    await authenticate('a');
    await publisher.publish(channel, 'not json');
    await vi.waitFor(() => expect(cache.size).toBe(0));
    expect(cache.active).toBe(true);
  });

  it('is bypassed while not subscribed, and flushed when subscribed again', async () => {
    const { cache, connection, subscription, service, authenticate, closed } = await subscribed();
    await authenticate('a');
    expect(cache.size).toBe(1);

    const lost = closed();
    connection.disconnect(true);
    await lost;
    expect(cache.active).toBe(false);
    await authenticate('a');
    await authenticate('a');
    expect(service).toHaveBeenCalledTimes(3);
    expect(cache.size).toBe(0);

    await subscription.whenSubscribed();
    expect(cache.active).toBe(true);
    expect(cache.size).toBe(0);
    await authenticate('a');
    await authenticate('a');
    expect(service).toHaveBeenCalledTimes(4);
  });

  it('starts bypassed until the first subscription, and stays so once closed', async () => {
    const cache = new AuthenticationCache();
    const connection = new Redis(testRedisUrl(), { autoResubscribe: false, lazyConnect: true });
    const subscription = subscribeToClientInvalidations({ connection, channel, cache, log: testLogger() });
    expect(cache.active).toBe(false);
    await connection.connect();
    await subscription.whenSubscribed();
    expect(cache.active).toBe(true);
    await subscription.close();
    expect(cache.active).toBe(false);
  });
});
