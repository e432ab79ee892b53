import { create, type DescMethod, type DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { runWithRequestContext, sanitizeRequestId } from '../context/index.js';
import { normalizeError, toGrpcStatus, type AppError } from '../errors/index.js';
import { UnaryCallContext } from './call-context.js';
import { REQUEST_ID_METADATA_KEY, metadataGetter } from './metadata-carrier.js';
import { methodDefinition } from './method-definitions.js';
import type { CallContext, ServiceImplementation } from './service-types.js';

type UnaryHandler = (request: unknown, call: CallContext) => Promise<unknown>;

export interface GrpcServerOptions {
  /** Service name used in span names (`<service>.<operation>`, CONVENTIONS.md #10). */
  serviceName: string;
  logger: Logger;
}

/**
 * channelz (grpc-js's introspection service) is never served here, but when enabled, grpc-js
 * keeps its per-call and per-stream statistics anyway (docs/performance.md #2).
 */
const SERVER_OPTIONS: grpc.ServerOptions = { 'grpc.enable_channelz': 0 };

/** A grpc-js server hosting protobuf-es services; handlers are plain async functions. */
export class GrpcServer {
  private readonly server = new grpc.Server(SERVER_OPTIONS);
  private readonly tracer = trace.getTracer('@authz/shared/grpc');

  constructor(private readonly options: GrpcServerOptions) {}

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
      grpcHandlers[method.name] = this.wrap(method, handler.bind(implementation));
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

  private wrap(method: DescMethod, handler: UnaryHandler): grpc.handleUnaryCall<unknown, unknown> {
    const operation = `${this.options.serviceName}.${method.localName}`;
    return (call, callback) => {
      const requestId = sanitizeRequestId(call.metadata.get(REQUEST_ID_METADATA_KEY)[0]?.toString());
      const context = new UnaryCallContext(this.options.logger, operation, requestId);
      call.on('cancelled', () => context.cancel());
      const parent = propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter);
      this.tracer.startActiveSpan(operation, { kind: SpanKind.SERVER }, parent, (span) =>
        runWithRequestContext({ requestId }, async () => {
          try {
            const result = await handler(call.request, context);
            context.finish();
            callback(null, create(method.output, result as never));
          } catch (thrown) {
            context.finish();
            const error = normalizeError(thrown);
            logFailure(context.log, error, thrown);
            span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
            callback(toGrpcStatus(error) as grpc.ServerErrorResponse);
          } finally {
            span.end();
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
