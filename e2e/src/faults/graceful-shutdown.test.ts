import { randomBytes, randomUUID } from 'node:crypto';
import type { DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { TokenService } from '@authz/proto/oauth/v1/oauth';
import { ServiceUnavailableError } from '@authz/shared/errors';
import { GrpcChannel, GrpcServer } from '@authz/shared/grpc';
import { spareTestPort, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProcess, connectionRefused } from './fault-helpers.js';

// SIGTERM drains (docs/operations.md "Shutdown", docs/architecture.md #12): a real
// `node dist/main.js` process stops accepting new connections at once, lets the calls already in
// flight finish with their answer, then closes its pools and queues and exits 0 (ShutdownManager,
// runServiceMain, the gateway's main.ts).
// Each in-flight call is held open by a stand-in of the service it calls.
const environment = useTestEnvironment();
const cleanups: (() => Promise<unknown>)[] = [];
/** Real processes start in seconds, more on a busy two-core machine. */
const PROCESSES = { timeout: 60_000 };

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A call the stand-in holds: `arrived` once it is in flight, answered on `release()`. */
class HeldCall {
  arrived!: Promise<void>;
  release!: () => void;
  private readonly released: Promise<void>;
  private arrive!: () => void;

  constructor() {
    this.arrived = new Promise((resolve) => (this.arrive = resolve));
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  /** The handler: reports arrival, waits for the release, then answers `answer`. */
  handler(answer: unknown) {
    return async () => {
      this.arrive();
      await this.released;
      return answer;
    };
  }
}

/** A stand-in gRPC service: the given handlers, every other method unavailable. */
async function startStandIn<S extends GenService<GenServiceMethods>>(
  service: S,
  handlers: Record<string, () => Promise<unknown>>,
): Promise<string> {
  const unavailable = () => Promise.reject(new ServiceUnavailableError());
  const implementation = Object.fromEntries(
    (service as unknown as DescService).methods.map((method) => [
      method.localName,
      handlers[method.localName] ?? unavailable,
    ]),
  );
  const server = new GrpcServer({ serviceName: 'stand-in', logger: testLogger() }).addService(
    service,
    implementation as never,
  );
  const port = await server.listen('127.0.0.1', 0);
  cleanups.push(() => server.close(0));
  return `127.0.0.1:${port}`;
}

function track(process: AppProcess): AppProcess {
  cleanups.push(() => process.stop());
  return process;
}

/** SIGTERM, then: refused new connections while the held call is still open. */
async function terminateWhileHeld(process: AppProcess, port: number): Promise<void> {
  process.signal('SIGTERM');
  await expect.poll(() => connectionRefused(port), { timeout: 3000, interval: 20 }).toBe(true);
  expect(process.running).toBe(true);
}

function expectCleanExit(process: AppProcess, exit: { code: number | null; signal: string | null }) {
  expect(exit).toEqual({ code: 0, signal: null });
  expect(process.messages).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  expect(process.messages).not.toContain('close failed');
  expect(process.messages).not.toContain('shutdown timed out');
}

describe('an oauth service process', () => {
  it(
    'on SIGTERM refuses new connections, finishes the call in flight (database still open), then exits 0',
    PROCESSES,
    async () => {
      const checkCredentials = new HeldCall();
      const identity = await startStandIn(IdentityService, {
        checkCredentials: checkCredentials.handler({
          user: { id: randomUUID(), email: 'held@example.com', emailVerified: false },
          sessionId: randomUUID(),
          authTime: BigInt(Math.floor(Date.now() / 1000)),
        }),
      });
      const grpcPort = await spareTestPort();
      const oauth = track(
        new AppProcess('oauth', {
          DATABASE_URL: environment.databaseUrl,
          REDIS_URL: environment.redisUrl,
          REDIS_KEY_PREFIX: environment.redisPrefix,
          KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
          SECRET_HASH_KEY: randomBytes(32).toString('hex'),
          JWT_ISSUER: 'http://127.0.0.1:3000',
          IDENTITY_GRPC_URL: identity,
          CLIENTS_GRPC_URL: identity,
          OAUTH_GRPC_PORT: String(grpcPort),
          OAUTH_METRICS_PORT: String(await spareTestPort()),
        }),
      );
      await oauth.waitForMessage('service started');
      const channel = new GrpcChannel(`127.0.0.1:${grpcPort}`);
      cleanups.push(async () => channel.close());

      // First-party login: identity checks the password (held), then oauth writes a refresh-token
      // family to Postgres, so the answer needs the pool the shutdown closes last.
      const login = channel
        .service(TokenService)
        .loginFirstParty({ email: 'held@example.com', password: 'x' });
      await checkCredentials.arrived;
      await terminateWhileHeld(oauth, grpcPort);
      // A caller that comes now is refused at once, with the 503 the gateway renders.
      const late = new GrpcChannel(`127.0.0.1:${grpcPort}`);
      cleanups.push(async () => late.close());
      await expect(
        late.service(TokenService).loginFirstParty({ email: 'late@example.com' }),
      ).rejects.toBeInstanceOf(ServiceUnavailableError);

      checkCredentials.release();
      const { tokens } = await login;
      expect(tokens).toMatchObject({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900 });
      expect(tokens!.refreshToken).toMatch(/^[0-9a-f]{64}$/);
      expectCleanExit(oauth, await oauth.exited);
    },
  );
});

describe('the gateway process', () => {
  it(
    'on SIGTERM refuses new connections, answers the request in flight, then exits 0',
    PROCESSES,
    async () => {
      const token = new HeldCall();
      const upstream = await startStandIn(TokenService, {
        token: token.handler({
          tokens: { accessToken: 'held-access-token', expiresIn: 900, tokenType: 'Bearer' },
        }),
      });
      const port = await spareTestPort();
      const services = ['IDENTITY', 'OAUTH', 'CLIENTS', 'CONSENT_UI', 'WALLET_BRIDGE'];
      const gateway = track(
        new AppProcess('gateway', {
          PORT: String(port),
          HOST: '127.0.0.1',
          JWT_ISSUER: `http://127.0.0.1:${port}`,
          REDIS_URL: environment.redisUrl,
          REDIS_KEY_PREFIX: environment.redisPrefix,
          ...Object.fromEntries(services.map((name) => [`${name}_GRPC_URL`, upstream])),
        }),
      );
      await gateway.waitForMessage('gateway listening');

      const inFlight = fetch(`http://127.0.0.1:${port}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic YTpi' },
        body: 'grant_type=client_credentials',
      });
      await token.arrived;
      await terminateWhileHeld(gateway, port);

      token.release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      // The client learns not to send more on this connection, which then closes at once.
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toEqual({
        access_token: 'held-access-token',
        expires_in: 900,
        token_type: 'Bearer',
      });
      expectCleanExit(gateway, await gateway.exited);
    },
  );
});

describe('a mailer-worker process', () => {
  it('on SIGTERM closes its queue worker and Redis connections and exits 0 at once', PROCESSES, async () => {
    const worker = track(
      new AppProcess('mailer-worker', {
        REDIS_URL: environment.redisUrl,
        REDIS_KEY_PREFIX: environment.redisPrefix,
        SMTP_URL: `smtp://127.0.0.1:${await spareTestPort()}`,
        MAILER_WORKER_GRPC_PORT: String(await spareTestPort()),
        MAILER_WORKER_METRICS_PORT: String(await spareTestPort()),
      }),
    );
    await worker.waitForMessage('service started');
    const stopping = Date.now();
    worker.signal('SIGTERM');
    expectCleanExit(worker, await worker.exited);
    // A worker blocked waiting for jobs lets go at once: no waiting out the 10 s budget.
    expect(Date.now() - stopping).toBeLessThan(6000);
  });
});
