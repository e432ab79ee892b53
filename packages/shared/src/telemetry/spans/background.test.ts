import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry, type Telemetry } from '../index.js';
import { outsideTraces } from './background.js';
import { startClientSpan, tracedServiceName } from './child-span.js';
import { serviceContext } from './service-context.js';

// docs/observability.md "One trace per request": work a request merely arms runs in no trace.
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;

beforeAll(() => {
  telemetry = startTelemetry('background-test', undefined, {
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
});
afterAll(() => telemetry?.shutdown());

/**
 * The traced service a timer armed by `arm` inside a still-open traced call sees when it fires;
 * the timer also makes the span a Redis command would.
 */
async function seenByTimer(arm: (fire: () => void) => void): Promise<string | undefined> {
  const span = trace.getTracer('test').startSpan('probe.Call', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  let seen: string | undefined;
  await context.with(serviceContext(ROOT_CONTEXT, 'probe', span), async () => {
    arm(() => {
      seen = tracedServiceName();
      startClientSpan('redis.incrby', {})?.end();
    });
    // The call is still open when the timer fires.
    await sleep(30);
  });
  span.end();
  return seen;
}

describe('outsideTraces', () => {
  it('arms a timer that makes no span in the trace of the request that armed it', async () => {
    exporter.reset();
    expect(await seenByTimer((fire) => outsideTraces(() => setTimeout(fire, 5)))).toBeUndefined();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['probe.Call']);
  });

  it('is needed: a timer armed plainly joins that trace', async () => {
    exporter.reset();
    expect(await seenByTimer((fire) => setTimeout(fire, 5))).toBe('probe');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      'probe.redis.incrby',
      'probe.Call',
    ]);
  });

  it('returns what the work returns', () => {
    expect(outsideTraces(() => 42)).toBe(42);
  });
});
