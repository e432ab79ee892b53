import { create } from '@bufbuild/protobuf';
import { CheckResponseSchema, HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runWithRequestContext } from '../context/index.js';
import {
  InternalError,
  InvalidGrantError,
  ServiceUnavailableError,
  UpstreamTimeoutError,
} from '../errors/index.js';
import { createLogger } from '../logger/index.js';
import { BATCH_MAX_CALLS } from './call-batcher.js';
import { GrpcChannel } from './channel.js';
import { methodDefinition } from './method-definitions.js';
import { GrpcServer } from './server.js';

type Behaviour = (requestId: string, signal: AbortSignal) => Promise<void>;

const silent = createLogger({ service: 'test', level: 'silent' });

/** Sum and count of a histogram without labels, or of one labelled series. */
async function histogram(registry: Registry, name: string, method?: string) {
  const metric = await registry.getSingleMetric(name)!.get();
  const values = metric.values as { metricName?: string; labels: Record<string, unknown>; value: number }[];
  const of = (suffix: string) =>
    values
      .filter((value) => value.metricName === `${name}_${suffix}`)
      .filter((value) => !method || value.labels.grpc_method === method)
      .reduce((total, value) => total + value.value, 0);
  return { count: of('count'), sum: of('sum') };
}

/** Calls `check` once per request id, all in the same event-loop turn. */
function checkAll(
  client: ReturnType<GrpcChannel['service']>,
  requestIds: string[],
  options: { timeoutMs?: number; signals?: (AbortSignal | undefined)[] } = {},
) {
  return requestIds.map((requestId, index) =>
    runWithRequestContext({ requestId }, () =>
      (client as { check: (request: object, options?: object) => Promise<unknown> }).check(
        {},
        { timeoutMs: options.timeoutMs, signal: options.signals?.[index] },
      ),
    ),
  );
}

describe('batched unary calls (BatchService)', () => {
  let behaviour: Behaviour = async () => undefined;
  const seen: string[] = [];
  let metrics: Registry;
  let server: GrpcServer;
  let channel: GrpcChannel;
  let client: ReturnType<GrpcChannel['service']>;

  beforeAll(async () => {
    metrics = new Registry();
    server = new GrpcServer({ serviceName: 'test', logger: silent, metrics });
    server.addService(HealthService, {
      async check(_request, call) {
        seen.push(call.requestId);
        await behaviour(call.requestId, call.signal);
        return { status: ServingStatus.SERVING, dependencies: [{ name: call.requestId, connected: true }] };
      },
    });
    const port = await server.listen('127.0.0.1', 0);
    channel = new GrpcChannel(`127.0.0.1:${port}`);
    client = channel.service(HealthService, { batched: ['check'] });
  });

  beforeEach(() => {
    behaviour = async () => undefined;
    seen.length = 0;
    metrics.resetMetrics();
  });

  afterAll(async () => {
    channel.close();
    await server.close();
  });

  it('sends the calls of one turn as one batch; each handler sees its own call', async () => {
    const ids = ['req-a', 'req-b', 'req-c', 'req-d', 'req-e'];
    const answers = (await Promise.all(checkAll(client, ids))) as { dependencies: { name: string }[] }[];

    expect(answers.map((answer) => answer.dependencies[0]!.name)).toEqual(ids);
    expect([...seen].sort()).toEqual(ids);
    expect(await histogram(metrics, 'grpc_server_batch_calls')).toEqual({ count: 1, sum: 5 });
    // Each call is still counted under its own method, once.
    expect((await histogram(metrics, 'grpc_server_handling_seconds', 'Check')).count).toBe(5);
  });

  it('sends a call alone in its turn as a plain unary call', async () => {
    await Promise.all(checkAll(client, ['alone']));
    expect(seen).toEqual(['alone']);
    expect((await histogram(metrics, 'grpc_server_batch_calls')).count).toBe(0);
    expect((await histogram(metrics, 'grpc_server_handling_seconds', 'Check')).count).toBe(1);
  });

  it(`holds at most ${BATCH_MAX_CALLS} calls in one batch`, async () => {
    const ids = Array.from({ length: BATCH_MAX_CALLS + 3 }, (_, index) => `many-${index}`);
    await Promise.all(checkAll(client, ids));
    expect(await histogram(metrics, 'grpc_server_batch_calls')).toEqual({ count: 2, sum: ids.length });
  });

  it('gives every call its own outcome: the error class its handler threw, or its answer', async () => {
    behaviour = async (requestId) => {
      if (requestId.startsWith('bad')) throw new InvalidGrantError({ message: `refused ${requestId}` });
    };
    const results = await Promise.allSettled(checkAll(client, ['good-1', 'bad-1', 'good-2', 'bad-2']));

    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    for (const [index, result] of results.entries()) {
      if (result.status !== 'rejected') continue;
      const error = result.reason as InvalidGrantError;
      expect(error).toBeInstanceOf(InvalidGrantError);
      expect([error.code, error.statusCode, error.message]).toEqual([
        'INVALID_GRANT',
        400,
        `refused bad-${index === 1 ? 1 : 2}`,
      ]);
    }
    expect((await histogram(metrics, 'grpc_server_batch_calls')).count).toBe(1);
  });

  it('fails every call of a batch whose deadline passes, as a unary call fails', async () => {
    behaviour = (_requestId, signal) =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    const results = await Promise.allSettled(checkAll(client, ['slow-1', 'slow-2'], { timeoutMs: 150 }));

    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(UpstreamTimeoutError);
    }
  });

  it('rejects only the call its caller cancels', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    behaviour = () => released;
    const cancel = new AbortController();
    const calls = checkAll(client, ['kept-1', 'cancelled', 'kept-2'], {
      signals: [undefined, cancel.signal, undefined],
    });
    cancel.abort();
    const cancelled = await Promise.allSettled([calls[1]!]);
    release();
    const results = await Promise.allSettled(calls);

    expect(cancelled[0]!.status).toBe('rejected');
    expect((cancelled[0] as PromiseRejectedResult).reason).toBeInstanceOf(InternalError);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('batched calls to a server without BatchService', () => {
  let server: grpc.Server;
  let channel: GrpcChannel;
  let checks = 0;

  beforeAll(async () => {
    // A release before BatchService: Check served as a plain grpc-js method, nothing else.
    server = new grpc.Server();
    server.addService(
      { Check: methodDefinition(HealthService, HealthService.method.check) },
      {
        Check: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
          checks += 1;
          callback(null, create(CheckResponseSchema, { status: ServingStatus.SERVING }));
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    channel = new GrpcChannel(`127.0.0.1:${port}`);
  });

  afterAll(() => {
    channel.close();
    server.forceShutdown();
  });

  it('falls back to unary calls: the server ran nothing of the refused batch', async () => {
    const client = channel.service(HealthService, { batched: ['check'] });
    const answers = (await Promise.all(checkAll(client, ['old-1', 'old-2', 'old-3']))) as {
      status: number;
    }[];
    expect(answers.map((answer) => answer.status)).toEqual([1, 1, 1]);
    expect(checks).toBe(3);
  });
});

describe('batched calls to an unreachable service', () => {
  it('fail each with ServiceUnavailableError, as unary calls do', async () => {
    const channel = new GrpcChannel('127.0.0.1:1', { defaultTimeoutMs: 2000 });
    const client = channel.service(HealthService, { batched: ['check'] });
    const results = await Promise.allSettled(checkAll(client, ['down-1', 'down-2']));
    channel.close();
    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    }
  });
});
