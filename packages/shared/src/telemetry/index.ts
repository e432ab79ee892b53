import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  /** Exports what is still buffered, then unregisters the tracer provider. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Where finished spans go instead of the OTLP exporter; tracing then runs without an endpoint (tests). */
  spanProcessors?: SpanProcessor[];
}

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/contract.md): spans
 * exported over OTLP/HTTP in batches (OTEL_BSP_*, OTEL_TRACES_SAMPLER and the exporter's own
 * OTEL_EXPORTER_OTLP_* variables apply), AsyncLocalStorage context, W3C trace context and
 * baggage propagation. The spans are this repository's own (docs/observability.md): servers
 * start them; the gRPC, SQL and Redis clients add theirs. Without an endpoint nothing is
 * registered and tracing costs nothing.
 *
 * Registered through this module's (ESM) copy of @opentelemetry/api rather than by NodeSDK:
 * the SDK packages load the api's CommonJS copy, whose registration leaves tracers that ESM
 * code obtained earlier (a server built before tracing started) recording nothing.
 */
export function startTelemetry(
  serviceName: string,
  endpoint: string | undefined,
  options: TelemetryOptions = {},
): Telemetry {
  const spanProcessors =
    options.spanProcessors ??
    (endpoint
      ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))]
      : []);
  if (spanProcessors.length === 0) return { shutdown: async () => undefined };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
  return {
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
