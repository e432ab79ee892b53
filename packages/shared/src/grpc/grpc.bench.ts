import { connect, createServer, type ClientHttp2Session, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { TokenService, type TokenRequestSchema } from '@authz/proto/oauth/v1/oauth';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { runWithRequestContext } from '../context/index.js';
import { createLogger } from '../logger/index.js';
import { GrpcChannel } from './channel.js';
import { GrpcServer } from './server.js';
import type { ServiceImplementation } from './service-types.js';

// The adapter's own cost per unary round trip over loopback (serialisation, metadata,
// deadline, context): the floor under every gateway -> service call. Client and server share
// this process, so one call's time is the CPU of both halves (docs/performance.md).
const CONCURRENCY = 50;
/** Long enough for a few hundred samples: the minimum and the median are the figures to read. */
const TIME = { time: 2000 };
const ACCESS_TOKEN = 'e'.repeat(560);

const server = new GrpcServer({
  serviceName: 'bench',
  logger: createLogger({ service: 'bench', level: 'silent' }),
});
let channel: GrpcChannel;
let bare: { server: Http2Server; session: ClientHttp2Session };

/** TokenService answering every token request as client_credentials does: one signed JWT. */
const tokens = Object.fromEntries(
  TokenService.methods.map((method) => [method.localName, () => Promise.reject(new Error('unused'))]),
) as unknown as ServiceImplementation<typeof TokenService>;
tokens.token = async () => ({
  tokens: { accessToken: ACCESS_TOKEN, expiresIn: 900, tokenType: 'Bearer', scope: 'profile' },
});

/** What the gateway sends for `grant_type=client_credentials&scope=profile` with Basic. */
const tokenRequest: MessageInitShape<typeof TokenRequestSchema> = {
  parameters: [
    { name: 'grant_type', value: 'client_credentials' },
    { name: 'scope', value: 'profile' },
  ],
  basic: { clientId: '00000000-0000-4000-8000-000000000000', clientSecret: 's'.repeat(43) },
  origin: { ip: '127.0.0.1', userAgent: 'autocannon' },
};

beforeAll(async () => {
  server.addService(HealthService, {
    check: async () => ({
      status: ServingStatus.SERVING,
      dependencies: [{ name: 'database', connected: true }],
    }),
  });
  server.addService(TokenService, tokens);
  const port = await server.listen('127.0.0.1', 0);
  channel = new GrpcChannel(`127.0.0.1:${port}`);
  await channel.service(HealthService).check({});
  bare = await startBareHttp2();
});

afterAll(async () => {
  channel.close();
  await server.close();
  bare.session.close();
  bare.server.close();
});

function concurrently(call: (n: number) => Promise<unknown>): Promise<unknown> {
  return Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => call(n)));
}

describe('grpc adapter', () => {
  bench('unary round trip, sequential', async () => {
    await channel.service(HealthService).check({});
  });

  bench(
    '50 concurrent unary calls',
    async () => {
      const client = channel.service(HealthService);
      await concurrently(() => client.check({}));
    },
    TIME,
  );

  bench(
    '50 concurrent token-shaped calls, each with its request id',
    async () => {
      const client = channel.service(TokenService);
      await concurrently((n) =>
        runWithRequestContext({ requestId: `req-${n}` }, () => client.token(tokenRequest)),
      );
    },
    TIME,
  );

  bench(
    'the same 50 exchanges on bare node:http2 (no gRPC library)',
    async () => {
      await concurrently(() => bareExchange(bare.session));
    },
    TIME,
  );
});

/**
 * The least any gRPC implementation on node:http2 does per unary call: one stream, the
 * request frame, a response frame and the grpc-status trailer. No (de)serialisation.
 */
async function startBareHttp2(): Promise<{ server: Http2Server; session: ClientHttp2Session }> {
  const response = lengthPrefixed(Buffer.alloc(600, 1));
  const http2Server = createServer();
  http2Server.on('stream', (stream) => {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(response);
    });
  });
  await new Promise<void>((resolve) => http2Server.listen(0, '127.0.0.1', resolve));
  const { port } = http2Server.address() as AddressInfo;
  const session = connect(`http://127.0.0.1:${port}`);
  await bareExchange(session);
  return { server: http2Server, session };
}

const bareRequest = lengthPrefixed(Buffer.alloc(150, 1));

function bareExchange(session: ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': '/authz.oauth.v1.TokenService/Token',
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': '5S',
      'x-request-id': 'req-1',
    });
    let status: unknown;
    stream.on('data', () => undefined);
    stream.on('trailers', (trailers) => (status = trailers['grpc-status']));
    stream.on('close', () =>
      status === '0' ? resolve() : reject(new Error(`grpc-status ${String(status)}`)),
    );
    stream.on('error', reject);
    stream.end(bareRequest);
  });
}

/** gRPC message framing: uncompressed flag, 4-byte big-endian length, the message. */
function lengthPrefixed(message: Buffer): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}
