import { createRedisTestPrefix, testLogger, testRedisUrl } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientInvalidations, invalidationChannel } from './client-invalidations.js';

// docs/decisions.md #28: once publish() resolves, every subscriber has the message ahead of
// any request the caller's answer could lead to.
const prefix = createRedisTestPrefix();
const channel = invalidationChannel(prefix);
let publisher: Redis;
let subscriber: Redis;
const heard: string[] = [];

beforeAll(async () => {
  publisher = new Redis(testRedisUrl());
  subscriber = new Redis(testRedisUrl());
  subscriber.on('message', (_from: string, message: string) => heard.push(message));
  await subscriber.subscribe(channel);
});
afterAll(() => {
  publisher.disconnect();
  subscriber.disconnect();
});

describe('client invalidations', () => {
  it('publish() resolves only after a PING that follows the PUBLISH has been answered', async () => {
    const calls: string[] = [];
    const recording = {
      publish: async (to: string, message: string) => {
        calls.push(`publish ${to} ${message}`);
        return 1;
      },
      ping: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        calls.push('ping answered');
        return 'PONG';
      },
    } as unknown as Redis;
    await createClientInvalidations(recording, prefix, testLogger()).publish('c-1', 'deleted');
    expect(calls).toEqual([`publish ${channel} {"clientId":"c-1","reason":"deleted"}`, 'ping answered']);
  });

  it('a subscriber in this process has read the message by the time publish() resolves', async () => {
    const invalidations = createClientInvalidations(publisher, prefix, testLogger());
    for (let round = 0; round < 20; round += 1) {
      await invalidations.publish(`c-${round}`, 'updated');
      // Read before yielding: the message arrived no later than the answer that resolved publish().
      expect(heard.at(-1)).toBe(JSON.stringify({ clientId: `c-${round}`, reason: 'updated' }));
    }
    expect(heard).toHaveLength(20);
  });

  it('a Redis that cannot be reached is logged, never thrown: the change has committed', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    unreachable.on('error', () => undefined);
    const warnings: unknown[] = [];
    const log = { ...testLogger(), warn: (...args: unknown[]) => void warnings.push(args) };
    await expect(
      createClientInvalidations(unreachable, prefix, log as never).publish('c-x', 'disabled'),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    unreachable.disconnect();
  });
});
