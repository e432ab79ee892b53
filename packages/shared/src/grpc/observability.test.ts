import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runWithRequestContext } from '../context/index.js';
import { InternalError, InvalidGrantError } from '../errors/index.js';
import { createLogger } from '../logger/index.js';
import { sampleValue, startMetricsServer, type MetricsServer } from '../metrics/index.js';
import { startTelemetry, type Telemetry } from '../telemetry/index.js';
import { serviceContext } from '../telemetry/spans/index.js';
import { GrpcChannel } from './channel.js';
import { GrpcServer } from './server.js';

// The gRPC adapter's share of docs/observability.md: a SERVER span per call named
// `<service>.<Service>/<Method>` that continues the caller's CLIENT span, and the
// grpc_server_handling_seconds histogram on the service's metrics port.
let fails: Error | undefined;
const registry = new Registry();
const server = new GrpcServer({
  serviceName: 'probe',
  logger: createLogger({ service: 'probe', level: 'silent' }),
  metrics: registry,
}).addService(HealthService, {
  async check() {
    if (fails) throw fails;
    return { status: ServingStatus.SERVING, dependencies: [] };
  },
});
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let metricsServer: MetricsServer;
let channel: GrpcChannel;

beforeAll(async () => {
  telemetry = startTelemetry('grpc-test', undefined, { spanProcessors: [new SimpleSpanProcessor(exporter)] });
  channel = new GrpcChannel(`127.0.0.1:${await server.listen('127.0.0.1', 0)}`);
  metricsServer = await startMetricsServer(registry, '127.0.0.1', 0);
});

afterAll(async () => {
  channel.close();
  await server.close();
  await metricsServer.close();
  await telemetry.shutdown();
});

beforeEach(() => {
  fails = undefined;
  exporter.reset();
});

const check = () => channel.service(HealthService).check({});

/** Calls Check as the service `caller` does while serving a traced request. */
async function checkFromCaller(requestId: string) {
  const callerSpan = trace
    .getTracer('test')
    .startSpan('caller.Work', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  try {
    await context.with(serviceContext(ROOT_CONTEXT, 'caller', callerSpan), () =>
      runWithRequestContext({ requestId }, check),
    );
  } catch {
    // The spans are what this asks about.
  } finally {
    callerSpan.end();
  }
  return callerSpan;
}

/** The server span ends right after the answer is handed to grpc-js, so wait for it. */
async function spansNamed(...names: string[]): Promise<ReadableSpan[]> {
  await expect
    .poll(() =>
      exporter
        .getFinishedSpans()
        .map((span) => span.name)
        .sort(),
    )
    .toEqual([...names].sort());
  return names.map((name) => exporter.getFinishedSpans().find((span) => span.name === name)!);
}

describe('gRPC spans', () => {
  it('continue the caller: caller span > CLIENT caller.HealthService/Check > SERVER probe.HealthService/Check', async () => {
    const callerSpan = await checkFromCaller('req-trace-1');
    const [caller, client, served] = await spansNamed(
      'caller.Work',
      'caller.HealthService/Check',
      'probe.HealthService/Check',
    );
    expect(caller!.spanContext().spanId).toBe(callerSpan.spanContext().spanId);
    expect(client!.kind).toBe(SpanKind.CLIENT);
    expect(client!.parentSpanContext?.spanId).toBe(caller!.spanContext().spanId);
    expect(served!.kind).toBe(SpanKind.SERVER);
    expect(served!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
    expect(new Set([caller, client, served].map((span) => span!.spanContext().traceId)).size).toBe(1);
    const rpc = {
      'rpc.system': 'grpc',
      'rpc.service': 'authz.health.v1.HealthService',
      'rpc.method': 'Check',
      'rpc.grpc.status_code': 0,
      'request.id': 'req-trace-1',
    };
    expect(client!.attributes).toEqual(rpc);
    expect(served!.attributes).toEqual(rpc);
    expect(served!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('mark server faults as errors, refusals only on the client side', async () => {
    fails = new InvalidGrantError({ message: 'code expired' });
    await checkFromCaller('req-refused');
    let [client, served] = await spansNamed(
      'caller.HealthService/Check',
      'probe.HealthService/Check',
      'caller.Work',
    );
    expect(client!.attributes).toMatchObject({ 'rpc.grpc.status_code': 3, 'error.type': 'INVALID_GRANT' });
    expect(client!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INVALID_GRANT' });
    expect(served!.attributes['rpc.grpc.status_code']).toBe(3);
    expect(served!.status.code).toBe(SpanStatusCode.UNSET);

    exporter.reset();
    fails = new InternalError({ detail: 'disk on fire' });
    await checkFromCaller('req-fault');
    [client, served] = await spansNamed(
      'caller.HealthService/Check',
      'probe.HealthService/Check',
      'caller.Work',
    );
    expect(served!.attributes['rpc.grpc.status_code']).toBe(13);
    expect(served!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INTERNAL_ERROR' });
    expect(JSON.stringify([client!.attributes, served!.attributes, served!.status])).not.toContain(
      'disk on fire',
    );
  });

  it('continue each caller when calls travel in one batch: one trace per caller, as unary', async () => {
    const batched = channel.service(HealthService, { batched: ['check'] });
    const batches = async () => sampleValue(await registry.metrics(), 'grpc_server_batch_calls_count', {});
    const batchesBefore = await batches();
    const callers = ['req-batch-1', 'req-batch-2'].map((requestId) => {
      const span = trace.getTracer('test').startSpan('caller.Work', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
      const call = context.with(serviceContext(ROOT_CONTEXT, 'caller', span), () =>
        runWithRequestContext({ requestId }, () => batched.check({})),
      );
      return { span, call };
    });
    await Promise.all(callers.map(({ call }) => call));
    for (const { span } of callers) span.end();
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(6);

    const spans = exporter.getFinishedSpans();
    for (const { span } of callers) {
      const traceId = span.spanContext().traceId;
      const inTrace = spans.filter((candidate) => candidate.spanContext().traceId === traceId);
      const client = inTrace.find((candidate) => candidate.name === 'caller.HealthService/Check')!;
      const served = inTrace.find((candidate) => candidate.name === 'probe.HealthService/Check')!;
      expect(inTrace).toHaveLength(3);
      expect(client.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
      expect(served.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
      expect(served.attributes['request.id']).toBe(client.attributes['request.id']);
    }
    expect(spans.filter((candidate) => candidate.name.includes('BatchService'))).toEqual([]);
    expect((await batches())! - batchesBefore!).toBe(1);
  });

  it('start a trace at the server for a call made outside any traced work, with no CLIENT span', async () => {
    await check();
    const [served] = await spansNamed('probe.HealthService/Check');
    expect(served!.parentSpanContext).toBeUndefined();
  });
});

describe('grpc_server_handling_seconds on the metrics port', () => {
  it('counts each call by service, method and status code, and times it', async () => {
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`)).text();
    const labels = { grpc_service: 'authz.health.v1.HealthService', grpc_method: 'Check' };
    const count = (exposition: string, grpc_code: string) =>
      sampleValue(exposition, 'grpc_server_handling_seconds_count', { ...labels, grpc_code }) ?? 0;
    const before = await scrape();
    await check();
    await check();
    fails = new InvalidGrantError();
    await check().catch(() => undefined);
    fails = new InternalError();
    await check().catch(() => undefined);
    const after = await scrape();
    expect(count(after, 'OK') - count(before, 'OK')).toBe(2);
    expect(count(after, 'INVALID_ARGUMENT') - count(before, 'INVALID_ARGUMENT')).toBe(1);
    expect(count(after, 'INTERNAL') - count(before, 'INTERNAL')).toBe(1);
    expect(
      sampleValue(after, 'grpc_server_handling_seconds_bucket', { ...labels, grpc_code: 'OK', le: '+Inf' }),
    ).toBe(count(after, 'OK'));
    expect(
      sampleValue(after, 'grpc_server_handling_seconds_sum', { ...labels, grpc_code: 'OK' }),
    ).toBeGreaterThan(0);
  });

  it('exports every method at zero from the start', async () => {
    const fresh = new Registry();
    new GrpcServer({
      serviceName: 'fresh',
      logger: createLogger({ service: 'fresh', level: 'silent' }),
      metrics: fresh,
    }).addService(HealthService, {
      check: async () => ({ status: ServingStatus.SERVING, dependencies: [] }),
    });
    expect(
      sampleValue(await fresh.metrics(), 'grpc_server_handling_seconds_count', {
        grpc_service: 'authz.health.v1.HealthService',
        grpc_method: 'Check',
        grpc_code: 'OK',
      }),
    ).toBe(0);
  });
});
