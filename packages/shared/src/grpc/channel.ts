import { create, type DescService } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { SpanStatusCode, context, propagation, trace, type Attributes } from '@opentelemetry/api';
import * as grpc from '@grpc/grpc-js';
import { currentRequestContext, newRequestId } from '../context/index.js';
import { normalizeError, toGrpcStatus } from '../errors/index.js';
import { startClientSpan } from '../telemetry/spans/index.js';
import { REQUEST_ID_METADATA_KEY, metadataSetter } from './metadata-carrier.js';
import { methodDefinition } from './method-definitions.js';
import { CallBatcher } from './call-batcher.js';
import { rpcAttributes, rpcOperation } from './rpc-names.js';
import type { CallOptions, MethodName, ServiceClient } from './service-types.js';
import { unaryCall } from './unary-call.js';

export interface GrpcChannelOptions {
  /** Deadline of calls that set none (every call has one). */
  defaultTimeoutMs?: number;
}

/**
 * docs/decisions.md #26: round-robin over every address the name resolves to, so a headless
 * Kubernetes Service spreads calls over all replicas. docs/decisions.md #27: no retry policy is
 * configured; grpc-js only retries transparently when a call never left the client.
 */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.enable_retries': 1,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  // Never served; when enabled grpc-js keeps per-call statistics anyway (docs/performance.md #2).
  'grpc.enable_channelz': 0,
};

/** `host:port` means DNS resolution; explicit schemes (dns:///, unix:, ipv4:) pass through. */
export function grpcTarget(address: string): string {
  return /^[a-z0-9+.-]+:\/\//i.test(address) || /^(unix|ipv4|ipv6|dns):/.test(address)
    ? address
    : `dns:///${address}`;
}

export interface ServiceClientOptions<S extends GenService<GenServiceMethods>> {
  /**
   * Methods whose calls made within one event-loop turn travel together in one
   * BatchService.Call (call-batcher.ts): the hot paths, where many requests arrive at once.
   */
  batched?: readonly MethodName<S>[];
}

/** One connection to a service address, shared by the typed clients of its services. */
export class GrpcChannel {
  private readonly channel: grpc.Channel;
  private readonly defaultTimeoutMs: number;
  private readonly batchers = new Map<string, CallBatcher>();

  constructor(address: string, options: GrpcChannelOptions = {}) {
    this.channel = new grpc.Channel(grpcTarget(address), grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 5000;
  }

  service<S extends GenService<GenServiceMethods>>(
    service: S,
    options: ServiceClientOptions<S> = {},
  ): ServiceClient<S> {
    const descriptor = service as unknown as DescService;
    const batched = new Set<string>(options.batched as readonly string[] | undefined);
    const methods: Record<string, (request: unknown, options?: CallOptions) => Promise<unknown>> = {};
    for (const method of descriptor.methods) {
      const definition = methodDefinition(descriptor, method);
      const call: RpcCall = {
        send: batched.has(method.localName)
          ? this.batcherOf(definition)
          : (request, metadata, deadline, signal) =>
              unaryCall(this.channel, definition, request, metadata, deadline, signal),
        operation: rpcOperation(descriptor, method),
        attributes: rpcAttributes(descriptor, method),
      };
      methods[method.localName] = (request, options = {}) =>
        this.call(call, create(method.input, request as never), options);
    }
    return methods as ServiceClient<S>;
  }

  close(): void {
    this.channel.close();
  }

  private batcherOf(definition: grpc.MethodDefinition<unknown, unknown>): Send {
    let batcher = this.batchers.get(definition.path);
    if (!batcher) {
      batcher = new CallBatcher(this.channel, definition);
      this.batchers.set(definition.path, batcher);
    }
    const target = batcher;
    return (request, metadata, deadline, signal) => target.call(request, metadata, deadline, signal);
  }

  private call(call: RpcCall, request: unknown, options: CallOptions): Promise<unknown> {
    const metadata = new grpc.Metadata();
    const requestId = currentRequestContext()?.requestId ?? newRequestId();
    metadata.set(REQUEST_ID_METADATA_KEY, requestId);
    const span = startClientSpan(call.operation, call.attributes);
    span?.setAttribute('request.id', requestId);
    propagation.inject(
      span ? trace.setSpan(context.active(), span) : context.active(),
      metadata,
      metadataSetter,
    );
    const deadline = Date.now() + (options.timeoutMs ?? this.defaultTimeoutMs);
    const answer = call.send(request, metadata, deadline, options.signal);
    if (!span) return answer;
    return answer.then(
      (response) => {
        span.setAttribute('rpc.grpc.status_code', grpc.status.OK);
        span.end();
        return response;
      },
      (error: unknown) => {
        const failure = normalizeError(error);
        const code = toGrpcStatus(failure).code ?? grpc.status.UNKNOWN;
        span.setAttributes({ 'rpc.grpc.status_code': code, 'error.type': failure.code });
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.code });
        span.end();
        throw error;
      },
    );
  }
}

type Send = (
  request: unknown,
  metadata: grpc.Metadata,
  deadline: number,
  signal: AbortSignal | undefined,
) => Promise<unknown>;

/** What a typed client method needs to call, and to name its span. */
interface RpcCall {
  /** A unary call, or a place in the method's next batch. */
  send: Send;
  /** `TokenService/Token`; the span is `<calling service>.TokenService/Token`. */
  operation: string;
  attributes: Attributes;
}
