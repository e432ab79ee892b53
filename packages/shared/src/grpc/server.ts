import { create, type DescMethod, type DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { runWithRequestContext, sanitizeRequestId } from '../context/index.js';
import { normalizeError, toGrpcStatus, type AppError } from '../errors/index.js';
import { serviceContext } from '../telemetry/spans/index.js';
import { UnaryCallContext } from './call-context.js';
import { REQUEST_ID_METADATA_KEY, metadataGetter } from './metadata-carrier.js';
import { methodDefinition } from './method-definitions.js';
import { rpcAttributes, rpcOperation } from './rpc-names.js';
import { RpcServerMetrics } from './server-metrics.js';
import type { CallContext, ServiceImplementation } from './service-types.js';

type UnaryHandler = (request: unknown, call: CallContext) => Promise<unknown>;

export interface GrpcServerOptions {
  /** Service name used in span names (`<service>.<operation>`, CONVENTIONS.md #10). */
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
 * (DECISIONS.md #26). Ending every connection after five minutes (grpc-js adds ±10 % jitter)
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

  constructor(private readonly options: GrpcServerOptions) {
    this.server = new grpc.Server(serverOptions(options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS));
    this.metrics = options.metrics && new RpcServerMetrics(options.metrics);
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
      definition[method.name] = methodDefinition(descriptor, method);
      grpcHandlers[method.name] = this.wrap(descriptor, method, handler.bind(implementation));
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

  private wrap(
    service: DescService,
    method: DescMethod,
    handler: UnaryHandler,
  ): grpc.handleUnaryCall<unknown, unknown> {
    const { serviceName } = this.options;
    const operation = `${serviceName}.${rpcOperation(service, method)}`;
    const attributes = rpcAttributes(service, method);
    const timer = this.metrics?.method(service.typeName, method.name);
    return (call, callback) => {
      const started = performance.now();
      const requestId = sanitizeRequestId(call.metadata.get(REQUEST_ID_METADATA_KEY)[0]?.toString());
      const callContext = new UnaryCallContext(this.options.logger, operation, requestId);
      call.on('cancelled', () => callContext.cancel());
      // A call is a trace of its own unless the caller sent W3C trace context (from inside ours).
      const parent = propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter);
      const span = this.tracer.startSpan(operation, { kind: SpanKind.SERVER, attributes }, parent);
      span.setAttribute('request.id', requestId);
      const answer = (code: grpc.status) => {
        span.setAttribute('rpc.grpc.status_code', code);
        span.end();
        timer?.(code, (performance.now() - started) / 1000);
      };
      context.with(serviceContext(parent, serviceName, span), () =>
        runWithRequestContext({ requestId }, async () => {
          try {
            const result = await handler(call.request, callContext);
            callContext.finish();
            callback(null, create(method.output, result as never));
            answer(grpc.status.OK);
          } catch (thrown) {
            callContext.finish();
            const error = normalizeError(thrown);
            logFailure(callContext.log, error, thrown);
            const status = toGrpcStatus(error);
            // Refusals (invalid_client, not found, ...) are answers, not faults of this server.
            if (error.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
            callback(status as grpc.ServerErrorResponse);
            answer(status.code ?? grpc.status.UNKNOWN);
          }
        }),
      );
    };
  }
}

function logFailure(log: Logger, error: AppError, thrown: unknown): void {
  if (error.statusCode >= 500) {
    log.error({ err: thrown, code: error.code, detail: error.detail }, 'rpc failed');
  } else {
    log.info({ code: error.code, statusCode: error.statusCode, detail: error.detail }, 'rpc refused');
  }
}
