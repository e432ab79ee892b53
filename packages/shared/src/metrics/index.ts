import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { ServiceImplementation } from '../grpc/service-types.js';
import type { MetricsService } from '@authz/proto/metrics/v1/metrics';

export { sampleValue } from './exposition.js';

/** A registry per service, labelled with its name, with Node's default process metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` on the service's own port (restrict it at the network level). */
export function startMetricsServer(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** MetricsService.Collect: the same exposition over gRPC. */
export function metricsServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof MetricsService> {
  return {
    async collect() {
      return { contentType: registry.contentType, exposition: await registry.metrics() };
    },
  };
}
