import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (CONTRACT.md); spans
 * are created by the gRPC adapter and the gateway (`<service>.<operation>`), and W3C trace
 * context travels in gRPC metadata. Without an endpoint tracing stays off at no cost.
 */
export function startTelemetry(serviceName: string, endpoint: string | undefined): Telemetry {
  if (!endpoint) return { shutdown: async () => undefined };
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
