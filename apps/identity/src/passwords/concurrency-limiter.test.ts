import { ServiceUnavailableError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { createConcurrencyLimiter } from './concurrency-limiter.js';

/** A task that runs until the test settles it, recording how many run at once. */
function gate() {
  let inFlight = 0;
  let maxInFlight = 0;
  const started: string[] = [];
  const pending = new Map<string, { resolve(value: string): void; reject(error: Error): void }>();
  return {
    task: (name: string) => () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      started.push(name);
      return new Promise<string>((resolve, reject) => pending.set(name, { resolve, reject })).finally(() => {
        inFlight -= 1;
      });
    },
    finish: (name: string) => pending.get(name)!.resolve(name),
    fail: (name: string) => pending.get(name)!.reject(new Error(`${name} failed`)),
    started,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

/** Lets queued continuations run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('concurrency limiter (docs/identity.md #16)', () => {
  it('never runs more than `concurrency` tasks at once', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 3, queue: 10, retryAfterSeconds: 1 });
    const work = gate();
    const names = Array.from({ length: 10 }, (_, index) => `t${index}`);
    const results = Promise.all(names.map((name) => limiter.run(work.task(name))));
    for (const name of names) {
      await settle();
      expect(work.started).toContain(name);
      work.finish(name);
    }
    expect(await results).toEqual(names);
    expect(work.maxInFlight).toBe(3);
  });

  it('refuses at once with a retryable 503 when the queue is full', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 1, queue: 2, retryAfterSeconds: 3 });
    const work = gate();
    const admitted = ['a', 'b', 'c'].map((name) => limiter.run(work.task(name)));
    const refused = await limiter.run(work.task('d')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(refused).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      statusCode: 503,
      message: 'Service unavailable',
      attributes: { retryAfterSeconds: '3' },
      retryAfterSeconds: 3,
    });
    await settle();
    expect(work.started).toEqual(['a']);
    for (const name of ['a', 'b', 'c']) {
      await settle();
      work.finish(name);
    }
    expect(await Promise.all(admitted)).toEqual(['a', 'b', 'c']);
  });

  it('with no queue, refuses whatever finds every slot taken', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 1, queue: 0, retryAfterSeconds: 1 });
    const work = gate();
    const first = limiter.run(work.task('a'));
    await expect(limiter.run(work.task('b'))).rejects.toBeInstanceOf(ServiceUnavailableError);
    await settle();
    work.finish('a');
    expect(await first).toBe('a');
    expect(work.started).toEqual(['a']);
  });

  it('starts queued tasks in arrival order', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 1, queue: 10, retryAfterSeconds: 1 });
    const work = gate();
    const runs = ['a', 'b', 'c', 'd'].map((name) => limiter.run(work.task(name)));
    await settle();
    work.finish('a');
    // A late arrival waits behind everyone already queued.
    runs.push(limiter.run(work.task('e')));
    for (const name of ['b', 'c', 'd', 'e']) {
      await settle();
      work.finish(name);
    }
    await Promise.all(runs);
    expect(work.started).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('gives the slot of a failing task to the next one', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 1, queue: 1, retryAfterSeconds: 1 });
    const work = gate();
    const failing = limiter.run(work.task('a'));
    const next = limiter.run(work.task('b'));
    await settle();
    work.fail('a');
    await expect(failing).rejects.toThrow('a failed');
    await settle();
    work.finish('b');
    expect(await next).toBe('b');
    // Both the slot and the queue place are free again.
    const again = [limiter.run(work.task('c')), limiter.run(work.task('d'))];
    await settle();
    work.finish('c');
    await settle();
    work.finish('d');
    expect(await Promise.all(again)).toEqual(['c', 'd']);
  });

  it('releases the slot of a task that throws before returning a promise', async () => {
    const limiter = createConcurrencyLimiter({ concurrency: 1, queue: 0, retryAfterSeconds: 1 });
    await expect(
      limiter.run(() => {
        throw new Error('synchronous');
      }),
    ).rejects.toThrow('synchronous');
    expect(await limiter.run(async () => 'ran')).toBe('ran');
  });
});
