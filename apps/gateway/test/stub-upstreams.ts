import type { DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { ClientsService } from '@authz/proto/clients/v1/clients';
import { HostedPagesService } from '@authz/proto/consentui/v1/consentui';
import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  AuthorizationService,
  DiscoveryService,
  KeysService,
  TokenService,
} from '@authz/proto/oauth/v1/oauth';
import { InternalError } from '@authz/shared/errors';
import { GrpcServer, type CallContext, type ServiceImplementation } from '@authz/shared/grpc';
import {
  cleanupRedisPrefix,
  createRedisTestPrefix,
  spareTestPort,
  testLogger,
  testRedisUrl,
} from '@authz/shared/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildGatewayApp, loadGatewayEnv, type GatewayApp } from '../src/app.js';
import type { UpstreamName } from '../src/plugins/upstreams.js';

/** The gRPC services the gateway calls, by the name its Upstreams client has for each. */
const STUBBED_SERVICES = {
  identity: { upstream: 'identity', service: IdentityService },
  tokens: { upstream: 'oauth', service: TokenService },
  authorization: { upstream: 'oauth', service: AuthorizationService },
  keys: { upstream: 'oauth', service: KeysService },
  discovery: { upstream: 'oauth', service: DiscoveryService },
  clients: { upstream: 'clients', service: ClientsService },
  hostedPages: { upstream: 'consent-ui', service: HostedPagesService },
  health: { upstream: undefined, service: HealthService },
} as const;

type Stubbed = typeof STUBBED_SERVICES;
export type StubbedService = keyof Stubbed;
type Implementation<K extends StubbedService> = ServiceImplementation<Stubbed[K]['service']>;

/**
 * The RPCs a test answers, per service; any other RPC fails with an InternalError (500).
 * HealthService is per upstream, and answers SERVING with a connected database where not stubbed.
 */
export type UpstreamStubs = { [K in Exclude<StubbedService, 'health'>]?: Partial<Implementation<K>> } & {
  health?: Partial<Record<UpstreamName, Partial<Implementation<'health'>>>>;
};

const UPSTREAMS: readonly UpstreamName[] = ['identity', 'oauth', 'clients', 'consent-ui', 'wallet-bridge'];

/** A request a stub received, as plain data (no protobuf `$typeName`). */
export interface RecordedCall {
  upstream: UpstreamName;
  service: StubbedService;
  rpc: string;
  request: unknown;
}

export interface StubbedGatewayOptions {
  /** What each stub answers; tests may change `stubs` between requests. */
  stubs?: UpstreamStubs;
  /** Upstreams that do not run: their address has nothing listening (UNAVAILABLE). */
  down?: UpstreamName[];
  /** Gateway settings on top of the defaults (issuer, rate limits on). */
  env?: Record<string, string>;
}

export interface StubbedGateway {
  readonly app: FastifyInstance;
  readonly gateway: GatewayApp;
  /** Mutable: replace an RPC's answer for the tests that follow. */
  readonly stubs: UpstreamStubs;
  /** Every request the stubs received, in order (HealthService.Check included). */
  readonly calls: RecordedCall[];
  /** The requests one RPC received, e.g. `requests('tokens', 'token')`. */
  requests(service: StubbedService, rpc: string): unknown[];
  close(): Promise<void>;
}

export const STUB_ISSUER = 'https://issuer.example';

/** What every upstream's HealthService answers unless stubbed. */
const serving: Partial<Implementation<'health'>> = {
  check: async () => ({
    status: ServingStatus.SERVING,
    dependencies: [{ name: 'database', connected: true }],
  }),
};

/**
 * The gateway as built for production (buildGatewayApp), its upstreams replaced by gRPC stub
 * servers started in-process (the shared GrpcServer, so errors travel as the services send
 * them), on real Redis under a key prefix of its own. Requests go through `app.inject`.
 */
export async function startStubbedGateway(options: StubbedGatewayOptions = {}): Promise<StubbedGateway> {
  const stubs: UpstreamStubs = options.stubs ?? {};
  const calls: RecordedCall[] = [];
  const down = new Set(options.down ?? []);
  const servers: GrpcServer[] = [];
  const addresses = {} as Record<UpstreamName, string>;
  const redisUrl = testRedisUrl();
  const redisPrefix = createRedisTestPrefix();

  const closeServers = () => Promise.all(servers.map((server) => server.close(100)));
  try {
    for (const upstream of UPSTREAMS) {
      if (down.has(upstream)) {
        addresses[upstream] = `127.0.0.1:${await spareTestPort()}`;
        continue;
      }
      const server = new GrpcServer({ serviceName: `${upstream}-stub`, logger: testLogger() });
      for (const [name, { upstream: owner, service }] of Object.entries(STUBBED_SERVICES)) {
        if (owner !== undefined && owner !== upstream) continue;
        server.addService(service, dispatcher(upstream, name as StubbedService, service, stubs, calls));
      }
      servers.push(server);
      addresses[upstream] = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    }
    const env = loadGatewayEnv({
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      JWT_ISSUER: STUB_ISSUER,
      IDENTITY_GRPC_URL: addresses.identity,
      OAUTH_GRPC_URL: addresses.oauth,
      CLIENTS_GRPC_URL: addresses.clients,
      CONSENT_UI_GRPC_URL: addresses['consent-ui'],
      WALLET_BRIDGE_GRPC_URL: addresses['wallet-bridge'],
      ...options.env,
    });
    const gateway = await buildGatewayApp({ env, logger: testLogger('gateway') });
    await gateway.app.ready();
    return {
      app: gateway.app,
      gateway,
      stubs,
      calls,
      requests: (service, rpc) =>
        calls.filter((call) => call.service === service && call.rpc === rpc).map((call) => call.request),
      close: async () => {
        await gateway.close();
        await closeServers();
        await cleanupRedisPrefix(redisUrl, redisPrefix);
      },
    };
  } catch (error) {
    await closeServers();
    throw error;
  }
}

/** Call once at the top of a test file (or describe block): the stubbed gateway for its tests. */
export function useStubbedGateway(options: StubbedGatewayOptions = {}): StubbedGateway {
  let running: StubbedGateway | undefined;
  beforeAll(async () => {
    running = await startStubbedGateway(options);
  });
  afterAll(async () => running?.close());
  const ready = (): StubbedGateway => {
    if (!running) throw new Error('useStubbedGateway(): the gateway runs only once beforeAll has run');
    return running;
  };
  return {
    get app() {
      return ready().app;
    },
    get gateway() {
      return ready().gateway;
    },
    get stubs() {
      return ready().stubs;
    },
    get calls() {
      return ready().calls;
    },
    requests: (service, rpc) => ready().requests(service, rpc),
    close: () => ready().close(),
  };
}

type Handler = (request: unknown, call: CallContext) => Promise<unknown>;

/** Every RPC of `service`: records the request, then runs the test's answer looked up at call time. */
function dispatcher<S extends GenService<GenServiceMethods>>(
  upstream: UpstreamName,
  name: StubbedService,
  service: S,
  stubs: UpstreamStubs,
  calls: RecordedCall[],
): ServiceImplementation<S> {
  const implementation: Record<string, Handler> = {};
  for (const method of (service as unknown as DescService).methods) {
    implementation[method.localName] = async (request, call) => {
      calls.push({ upstream, service: name, rpc: method.localName, request: plain(request) });
      const answers = (
        name === 'health' ? (stubs.health?.[upstream] ?? serving) : (stubs[name] ?? {})
      ) as Record<string, Handler | undefined>;
      const answer = answers[method.localName];
      if (!answer) throw new InternalError({ detail: `${name}.${method.localName} is not stubbed` });
      return answer(request, call);
    };
  }
  return implementation as unknown as ServiceImplementation<S>;
}

/** A protobuf-es message as plain data: `$typeName` dropped at every level. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== '$typeName')
      .map(([key, field]) => [key, plain(field)]),
  );
}
