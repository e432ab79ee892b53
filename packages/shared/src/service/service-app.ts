import type { Registry } from 'prom-client';
import type { GrpcServer } from '../grpc/server.js';

/**
 * What every gRPC service's `buildXxxApp()` returns (docs/conventions.md #1): the server with its
 * services added but not yet listening, its metrics registry, and a close for everything
 * else it opened (database pools, Redis). main.ts and tests both start it with startService.
 */
export interface ServiceApp {
  readonly server: GrpcServer;
  readonly metrics: Registry;
  close(): Promise<void>;
}

export interface RunningService {
  readonly grpcPort: number;
  /** Stops accepting calls, drains in-flight ones, then closes the app's resources. */
  close(): Promise<void>;
}

export async function startService(app: ServiceApp, host: string, port: number): Promise<RunningService> {
  const grpcPort = await app.server.listen(host, port);
  return {
    grpcPort,
    close: async () => {
      await app.server.close();
      await app.close();
    },
  };
}
