import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api';
import { serviceNameIn } from './service-context.js';

/**
 * The service whose recording span is active, if any. Only servers (the gateway's HTTP
 * requests, gRPC calls) start traces, so background work (relays, key reloads, queue polling)
 * adds no trace of its own; and while tracing is off this is all a client call costs.
 */
export function tracedServiceName(): string | undefined {
  const active = context.active();
  const service = serviceNameIn(active);
  return service && trace.getSpan(active)?.isRecording() ? service : undefined;
}

/** A CLIENT span for one call a service makes (gRPC, SQL, Redis), `<service>.<operation>`. */
export function startClientSpan(operation: string, attributes: Attributes): Span | undefined {
  const service = tracedServiceName();
  if (!service) return undefined;
  return trace
    .getTracer('@authz/shared')
    .startSpan(`${service}.${operation}`, { kind: SpanKind.CLIENT, attributes }, context.active());
}

/**
 * Ends `span` when `work` settles. A failure is marked with its error's name only: driver
 * messages can quote statement values.
 */
export function endWith<T>(span: Span | undefined, work: Promise<T>): Promise<T> {
  if (!span) return work;
  return work.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
      span.end();
      throw error;
    },
  );
}
