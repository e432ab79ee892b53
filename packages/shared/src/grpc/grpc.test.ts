import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithRequestContext } from '../context/index.js';
import {
  InternalError,
  InvalidGrantError,
  ServiceUnavailableError,
  UpstreamTimeoutError,
  ValidationError,
} from '../errors/index.js';
import { createLogger } from '../logger/index.js';
import { GrpcChannel } from './channel.js';
import { GrpcServer } from './server.js';
import type { ServiceImplementation } from './service-types.js';

type Behaviour = (requestId: string, signal: AbortSignal) => Promise<void>;

/** A HealthService whose Check does whatever the current test sets. */
function scriptedHealth(state: { behaviour: Behaviour }): ServiceImplementation<typeof HealthService> {
  return {
    async check(_request, call) {
      await state.behaviour(call.requestId, call.signal);
      return { status: ServingStatus.SERVING, dependencies: [{ name: 'echo', connected: true }] };
    },
  };
}

describe('grpc adapter', () => {
  const state: { behaviour: Behaviour } = { behaviour: async () => undefined };
  const server = new GrpcServer({
    serviceName: 'test',
    logger: createLogger({ service: 'test', level: 'silent' }),
  });
  let channel: GrpcChannel;

  beforeAll(async () => {
    server.addService(HealthService, scriptedHealth(state));
    const port = await server.listen('127.0.0.1', 0);
    channel = new GrpcChannel(`127.0.0.1:${port}`);
  });

  afterAll(async () => {
    channel.close();
    await server.close();
  });

  it('round-trips a typed message', async () => {
    state.behaviour = async () => undefined;
    const answer = await channel.service(HealthService).check({});
    expect(answer.status).toBe(ServingStatus.SERVING);
    expect(answer.dependencies.map(({ name, connected }) => ({ name, connected }))).toEqual([
      { name: 'echo', connected: true },
    ]);
  });

  it('carries the caller request id in metadata', async () => {
    let seen = '';
    state.behaviour = async (requestId) => {
      seen = requestId;
    };
    await runWithRequestContext({ requestId: 'req-123' }, () => channel.service(HealthService).check({}));
    expect(seen).toBe('req-123');
  });

  it('maps an expired deadline to a clean UpstreamTimeoutError and cancels the handler', async () => {
    let cancelled = false;
    state.behaviour = (_requestId, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          cancelled = true;
          resolve();
        });
        setTimeout(resolve, 2000);
      });
    const failure = await channel
      .service(HealthService)
      // Long enough for the handler to have started on a loaded machine, short beside its 2 s.
      .check({}, { timeoutMs: 300 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamTimeoutError);
    expect(failure).toMatchObject({
      statusCode: 504,
      code: 'UPSTREAM_TIMEOUT',
      message: 'Upstream service timed out',
    });
    await expect.poll(() => cancelled).toBe(true);
  });

  it("cancels the call when the caller's signal aborts, and the handler learns it", async () => {
    let handlerAborted = false;
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    state.behaviour = (_requestId, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          handlerAborted = true;
          resolve();
        });
        started();
      });
    const caller = new AbortController();
    const pending = channel
      .service(HealthService)
      .check({}, { timeoutMs: 10_000, signal: caller.signal })
      .catch((error: unknown) => error);
    await handlerStarted;
    caller.abort();
    const failure = await pending;
    expect(failure).toBeInstanceOf(InternalError);
    expect(failure).toMatchObject({ statusCode: 500, message: 'Internal server error' });
    await expect.poll(() => handlerAborted).toBe(true);
  });

  it('answers many concurrent calls, each with its own request id', async () => {
    const seen = new Set<string>();
    state.behaviour = async (requestId) => {
      seen.add(requestId);
    };
    const ids = Array.from({ length: 50 }, (_, n) => `req-${n}`);
    const answers = await Promise.all(
      ids.map((requestId) =>
        runWithRequestContext({ requestId }, () => channel.service(HealthService).check({})),
      ),
    );
    expect(answers.every((answer) => answer.status === ServingStatus.SERVING)).toBe(true);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('rebuilds the OAuth error class the service threw, with its description', async () => {
    state.behaviour = async () => {
      throw new InvalidGrantError({ message: 'code expired', detail: 'private' });
    };
    const failure = await channel
      .service(HealthService)
      .check({})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidGrantError);
    expect(failure).toMatchObject({ error: 'invalid_grant', statusCode: 400, description: 'code expired' });
    expect((failure as InvalidGrantError).detail).toBeUndefined();
  });

  it('rebuilds validation details field by field', async () => {
    state.behaviour = async () => {
      throw new ValidationError([{ path: 'email', message: 'must be an email' }]);
    };
    const failure = await channel
      .service(HealthService)
      .check({})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).details).toEqual([{ path: 'email', message: 'must be an email' }]);
  });

  it('never leaks an unexpected error message across the boundary', async () => {
    state.behaviour = async () => {
      throw new Error('duplicate key value violates unique constraint "users_email_key"');
    };
    const failure = await channel
      .service(HealthService)
      .check({})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InternalError);
    expect((failure as Error).message).toBe('Internal server error');
  });

  it('maps an unreachable service to ServiceUnavailableError', async () => {
    const closed = new GrpcServer({
      serviceName: 'gone',
      logger: createLogger({ service: 'gone', level: 'silent' }),
    });
    closed.addService(HealthService, scriptedHealth(state));
    const port = await closed.listen('127.0.0.1', 0);
    await closed.close();
    const deadChannel = new GrpcChannel(`127.0.0.1:${port}`);
    const failure = await deadChannel
      .service(HealthService)
      .check({}, { timeoutMs: 2000 })
      .catch((error: unknown) => error);
    deadChannel.close();
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
  });
});
