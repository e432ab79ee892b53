import { status } from '@grpc/grpc-js';
import { Histogram, type Registry } from 'prom-client';

type Label = 'grpc_service' | 'grpc_method' | 'grpc_code';
type Observer = ReturnType<Histogram<Label>['labels']>;

/** Records one handled call of a method: its status code and handling time. */
export type MethodTimer = (code: status, seconds: number) => void;

/**
 * `grpc_server_handling_seconds{grpc_service,grpc_method,grpc_code}` (go-grpc-prometheus's
 * names): from the decoded request to the answer handed to grpc-js. Its `_count` is the number
 * of calls handled, so there is no separate counter.
 */
export class RpcServerMetrics {
  private readonly histogram: Histogram<Label>;
  private readonly batches: Histogram;

  constructor(registry: Registry) {
    this.batches = new Histogram({
      name: 'grpc_server_batch_calls',
      help: 'Calls per BatchService.Call batch (each is also counted under its own method)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    });
    this.histogram = new Histogram({
      name: 'grpc_server_handling_seconds',
      help: 'gRPC server handling time by service, method and status code',
      labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }

  /** The timer of one method; its OK series is exported from the start, at zero. */
  method(grpcService: string, grpcMethod: string): MethodTimer {
    const observers = new Map<status, Observer>();
    const labels = (code: status) => ({
      grpc_service: grpcService,
      grpc_method: grpcMethod,
      grpc_code: status[code] ?? String(code),
    });
    this.histogram.zero(labels(status.OK));
    return (code, seconds) => {
      let observer = observers.get(code);
      if (!observer) {
        observer = this.histogram.labels(labels(code));
        observers.set(code, observer);
      }
      observer.observe(seconds);
    };
  }

  /** Records the size of each batch the server runs (batch-service.ts). */
  batchSizes(): (calls: number) => void {
    return (calls) => this.batches.observe(calls);
  }
}
