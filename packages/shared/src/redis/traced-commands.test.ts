import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTelemetry, type Telemetry } from '../telemetry/index.js';
import { serviceContext } from '../telemetry/spans/index.js';
import { cleanupRedisPrefix, createRedisTestPrefix } from '../testing/redis-prefix.js';
import { testRedisUrl } from '../testing/connection.js';
import { createRedisClient, whenReady } from './index.js';

// Redis's share of docs/observability.md: a span per command inside traced work, naming the
// command only.
const prefix = createRedisTestPrefix();
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let redis: Redis;

beforeAll(async () => {
  telemetry = startTelemetry('redis-test', undefined, {
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  redis = createRedisClient(testRedisUrl(), { keyPrefix: prefix, failFast: true });
  await whenReady(redis);
});

afterAll(async () => {
  redis?.disconnect();
  await telemetry?.shutdown();
  await cleanupRedisPrefix(testRedisUrl(), prefix);
});

beforeEach(() => exporter.reset());

async function asTracedCall<T>(work: () => Promise<T>): Promise<T> {
  const span = trace.getTracer('test').startSpan('probe.Call', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  try {
    return await context.with(serviceContext(ROOT_CONTEXT, 'probe', span), work);
  } finally {
    span.end();
  }
}

describe('Redis spans', () => {
  it('name each command <service>.redis.<command>, under the call, without keys or values', async () => {
    await asTracedCall(async () => {
      await redis.set('deny:jti-s3cret', 'value-s3cret', 'EX', 60);
      expect(await redis.get('deny:jti-s3cret')).toBe('value-s3cret');
    });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['probe.redis.set', 'probe.redis.get', 'probe.Call']);
    const [set, , call] = spans;
    expect(set!.kind).toBe(SpanKind.CLIENT);
    expect(set!.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
    expect(set!.attributes).toEqual({ 'db.system.name': 'redis', 'db.operation.name': 'SET' });
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes]))).not.toContain('s3cret');
  });

  it('cover pipelined commands, and mark a failed one without failing anything else', async () => {
    const results = await asTracedCall(() =>
      redis.pipeline().set('counter', 'not a number').incr('counter').del('counter').exec(),
    );
    expect(results?.map(([error]) => error?.name ?? null)).toEqual([null, 'ReplyError', null]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'probe.redis.set',
      'probe.redis.incr',
      'probe.redis.del',
      'probe.Call',
    ]);
    expect(spans[1]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ReplyError' });
  });

  it('are not made for work outside a traced call', async () => {
    await redis.ping();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
