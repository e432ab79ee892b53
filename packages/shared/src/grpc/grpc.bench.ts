import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { createLogger } from '../logger/index.js';
import { GrpcChannel } from './channel.js';
import { GrpcServer } from './server.js';

// The adapter's own cost per unary round trip over loopback (serialisation, metadata,
// deadline, context): the floor under every gateway -> service call.
const server = new GrpcServer({
  serviceName: 'bench',
  logger: createLogger({ service: 'bench', level: 'silent' }),
});
let channel: GrpcChannel;

beforeAll(async () => {
  server.addService(HealthService, {
    check: async () => ({
      status: ServingStatus.SERVING,
      dependencies: [{ name: 'database', connected: true }],
    }),
  });
  const port = await server.listen('127.0.0.1', 0);
  channel = new GrpcChannel(`127.0.0.1:${port}`);
  await channel.service(HealthService).check({});
});

afterAll(async () => {
  channel.close();
  await server.close();
});

describe('grpc adapter', () => {
  bench('unary round trip, sequential', async () => {
    await channel.service(HealthService).check({});
  });

  bench('50 concurrent unary calls', async () => {
    const client = channel.service(HealthService);
    await Promise.all(Array.from({ length: 50 }, () => client.check({})));
  });
});
