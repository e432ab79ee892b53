import { createContextKey, trace, type Context, type Span } from '@opentelemetry/api';

const SERVICE_NAME = createContextKey('authz.service.name');

/**
 * The context of work one service does under `span`. The whole suite can run in one process
 * (tests, docs/conventions.md #11) where the tracer provider and its resource are shared, so the
 * service's name travels in the context: the spans started inside it are named after it
 * (`<service>.<operation>`, docs/conventions.md #10).
 */
export function serviceContext(parent: Context, service: string, span: Span): Context {
  return trace.setSpan(parent, span).setValue(SERVICE_NAME, service);
}

/** The service the active work belongs to, as set by serviceContext(). */
export function serviceNameIn(active: Context): string | undefined {
  const name = active.getValue(SERVICE_NAME);
  return typeof name === 'string' ? name : undefined;
}
