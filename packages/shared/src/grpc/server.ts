import type { DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { ROOT_CONTEXT, propagation, trace } from '@opentelemetry/api';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { sanitizeRequestId } from '../context/index.js';
import { toGrpcStatus } from '../errors/index.js';
import { batchCallDefinition, batchCallHandler } from './batch-service.js';
import { REQUEST_ID_METADATA_KEY, metadataGetter } from './metadata-carrier.js';
import { methodDefinition } from './method-definitions.js';
import { MethodRunner, type UnaryHandler } from './method-runner.js';
import { RpcServerMetrics } from './server-metrics.js';
import type { ServiceImplementation } from './service-types.js';

export interface GrpcServerOptions {
  /** Service name used in span names (`<service>.<operation>`, docs/conventions.md #10). */
  serviceName: string;
  logger: Logger;
  /** Where `grpc_server_handling_seconds` is recorded (the service's registry); none without. */
  metrics?: Registry;
  /** How long a client connection may live; MAX_CONNECTION_AGE_MS unless a test says otherwise. */
  maxConnectionAgeMs?: number;
}

/**
 * Callers resolve `dns:///` names only when a connection ends (grpc-js re-resolves then), so a
 * replica that scaling adds would get no calls from callers whose connections stay healthy
 * (docs/decisions.md #26). Ending every connection after five minutes (grpc-js adds ±10 % jitter)
 * makes callers re-resolve and spread onto new replicas within that time; the GOAWAY lets
 * calls in flight finish, with a grace period well above every deadline.
 */
export const MAX_CONNECTION_AGE_MS = 5 * 60_000;
const MAX_CONNECTION_AGE_GRACE_MS = 30_000;

/**
 * channelz (grpc-js's introspection service) is never served here, but when enabled, grpc-js
 * keeps its per-call and per-stream statistics anyway (docs/performance.md #2).
 */
function serverOptions(maxConnectionAgeMs: number): grpc.ServerOptions {
  return {
    'grpc.enable_channelz': 0,
    'grpc.max_connection_age_ms': maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': MAX_CONNECTION_AGE_GRACE_MS,
  };
}

/** A grpc-js server hosting protobuf-es services; handlers are plain async functions. */
export class GrpcServer {
  private readonly server: grpc.Server;
  private readonly tracer = trace.getTracer('@authz/shared/grpc');
  private readonly metrics: RpcServerMetrics | undefined;
  /** Every unary method served, by gRPC path: what BatchService.Call may run. */
  private readonly runners = new Map<string, MethodRunner>();

  constructor(private readonly options: GrpcServerOptions) {
    this.server = new grpc.Server(serverOptions(options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS));
    this.metrics = options.metrics && new RpcServerMetrics(options.metrics);
    this.server.addService(
      { Call: batchCallDefinition },
      { Call: batchCallHandler(this.runners, this.metrics?.batchSizes()) },
    );
  }

  addService<S extends GenService<GenServiceMethods>>(
    service: S,
    implementation: ServiceImplementation<S>,
  ): this {
    const descriptor = service as unknown as DescService;
    const handlers = implementation as unknown as Record<string, UnaryHandler | undefined>;
    const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    const grpcHandlers: grpc.UntypedServiceImplementation = {};
    for (const method of descriptor.methods) {
      const handler = handlers[method.localName];
      if (!handler) throw new Error(`${descriptor.typeName}.${method.name} has no implementation`);
      const grpcMethod = methodDefinition(descriptor, method);
      definition[method.name] = grpcMethod;
      const runner = new MethodRunner(
        {
          serviceName: this.options.serviceName,
          logger: this.options.logger,
          tracer: this.tracer,
          timer: this.metrics?.method(descriptor.typeName, method.name),
        },
        descriptor,
        method,
        handler.bind(implementation),
      );
      this.runners.set(grpcMethod.path, runner);
      grpcHandlers[method.name] = unaryHandler(runner);
    }
    this.server.addService(definition, grpcHandlers);
    return this;
  }

  /** Binds and starts serving; resolves with the bound port (useful with port 0 in tests). */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, boundPort) =>
        error ? reject(error) : resolve(boundPort),
      );
    });
  }

  /** Lets in-flight calls finish, then forces the rest closed after `graceMs`. */
  close(graceMs = 5000): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** A unary call as grpc-js delivers it, run by the method's runner. */
function unaryHandler(runner: MethodRunner): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const callContext = runner.callContext(
      sanitizeRequestId(call.metadata.get(REQUEST_ID_METADATA_KEY)[0]?.toString()),
    );
    call.on('cancelled', () => callContext.cancel());
    // A call is a trace of its own unless the caller sent W3C trace context (from inside ours).
    const parent = propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter);
    void runner
      .run(call.request, callContext, parent)
      .then((outcome) =>
        outcome.ok
          ? callback(null, outcome.response)
          : callback(toGrpcStatus(outcome.error) as grpc.ServerErrorResponse),
      );
  };
}
