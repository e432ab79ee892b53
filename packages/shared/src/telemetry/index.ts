import { createRequire } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as Core from '@opentelemetry/core';
import type * as ExporterTraceOtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The SDK is loaded only when tracing starts: a process without an endpoint never holds it
 * (some 200 modules: docs/performance.md, "Memory"). These packages
 * are CommonJS only (no `exports` map), so `require` gives the very modules `import` would.
 */
const require = createRequire(import.meta.url);

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
  if (options.spanProcessors ? options.spanProcessors.length === 0 : !endpoint)
    return { shutdown: async () => undefined };
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } =
    require('@opentelemetry/core') as typeof Core;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
  const { BasicTracerProvider } = require('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const spanProcessors = options.spanProcessors ?? [otlpExporter(endpoint!)];
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

function otlpExporter(endpoint: string): SpanProcessor {
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof ExporterTraceOtlpHttp;
  return new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }));
}
