import { create, type DescMethod, type DescService } from '@bufbuild/protobuf';
import { SpanKind, SpanStatusCode, context, type Context, type Tracer } from '@opentelemetry/api';
import type { status } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { runWithRequestContext } from '../context/index.js';
import { grpcCodeOf, normalizeError, type AppError } from '../errors/index.js';
import { serviceContext } from '../telemetry/spans/index.js';
import { UnaryCallContext } from './call-context.js';
import { rpcAttributes, rpcOperation } from './rpc-names.js';
import type { MethodTimer } from './server-metrics.js';

export type UnaryHandler = (request: unknown, call: UnaryCallContext) => Promise<unknown>;

/** How one call of a method ended: its response message, or the error its handler threw. */
export type CallOutcome = { ok: true; response: unknown } | { ok: false; error: AppError };

const OK: status = 0;

export interface MethodRunnerOptions {
  /** Service name used in span names (`<service>.<operation>`, docs/conventions.md #10). */
  serviceName: string;
  logger: Logger;
  tracer: Tracer;
  timer: MethodTimer | undefined;
}

/**
 * Runs the calls of one unary method the same way whether a call came alone or in a batch
 * (batch-service.ts): its own call context, request context, server span, log line and
 * `grpc_server_handling_seconds` observation.
 */
export class MethodRunner {
  private readonly operation: string;
  private readonly attributes: ReturnType<typeof rpcAttributes>;

  constructor(
    private readonly options: MethodRunnerOptions,
    service: DescService,
    readonly method: DescMethod,
    private readonly handler: UnaryHandler,
  ) {
    this.operation = `${options.serviceName}.${rpcOperation(service, method)}`;
    this.attributes = rpcAttributes(service, method);
  }

  callContext(requestId: string): UnaryCallContext {
    return new UnaryCallContext(this.options.logger, this.operation, requestId);
  }

  /**
   * One call, as a trace of its own unless `parent` carries the caller's W3C trace context.
   * Never rejects: a thrown error becomes the failed outcome (logged here, once).
   */
  run(request: unknown, call: UnaryCallContext, parent: Context): Promise<CallOutcome> {
    const started = performance.now();
    const { serviceName, tracer, timer } = this.options;
    const span = tracer.startSpan(
      this.operation,
      { kind: SpanKind.SERVER, attributes: this.attributes },
      parent,
    );
    span.setAttribute('request.id', call.requestId);
    const answer = (code: status) => {
      span.setAttribute('rpc.grpc.status_code', code);
      span.end();
      timer?.(code, (performance.now() - started) / 1000);
    };
    return context.with(serviceContext(parent, serviceName, span), () =>
      runWithRequestContext({ requestId: call.requestId }, async (): Promise<CallOutcome> => {
        try {
          const result = await this.handler(request, call);
          call.finish();
          const response = create(this.method.output, result as never);
          answer(OK);
          return { ok: true, response };
        } catch (thrown) {
          call.finish();
          const error = normalizeError(thrown);
          logFailure(call.log, error, thrown);
          // Refusals (invalid_client, not found, ...) are answers, not faults of this server.
          if (error.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
          answer(grpcCodeOf(error));
          return { ok: false, error };
        }
      }),
    );
  }
}

function logFailure(log: Logger, error: AppError, thrown: unknown): void {
  if (error.statusCode >= 500) {
    log.error({ err: thrown, code: error.code, detail: error.detail }, 'rpc failed');
  } else {
    log.info({ code: error.code, statusCode: error.statusCode, detail: error.detail }, 'rpc refused');
  }
}
