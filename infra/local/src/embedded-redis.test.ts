import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisPing, startEmbeddedRedis, type EmbeddedRedisOptions } from './embedded-redis.js';
import { freePort, isPortFree } from './ports.js';
import { alive } from './test/launcher.js';

describe('embedded Redis', () => {
  let dir: string;
  let options: EmbeddedRedisOptions;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authz-redis-'));
    options = { dir: join(dir, 'redis'), port: await freePort(), password: 'f00d', sink: () => undefined };
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('serves a password-protected Redis and keeps data across a restart', async () => {
    const first = await startEmbeddedRedis(options);
    expect(first.url).toBe(`redis://:f00d@127.0.0.1:${options.port}`);
    expect(await redisPing(options.port, 'wrong')).toBe(false);
    const client = new Redis(first.url);
    await client.set('kept', 'yes');
    await client.quit();
    const pid = first.process.pid!;
    expect(await first.stop()).toEqual({ code: 0, signal: null, forced: false });
    expect(alive(pid)).toBe(false);
    expect(await isPortFree(options.port)).toBe(true);
    expect((await stat(join(options.dir, 'redis.conf'))).mode & 0o777).toBe(0o600);

    const second = await startEmbeddedRedis(options);
    const again = new Redis(second.url);
    expect(await again.get('kept')).toBe('yes');
    await again.quit();
    await second.stop();
  });
});
