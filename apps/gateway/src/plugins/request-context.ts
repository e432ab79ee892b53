import { runWithRequestContext, sanitizeRequestId } from '@authz/shared/context';
import { SpanKind, context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

/** Fastify's genReqId: keep a well-formed incoming X-Request-Id, otherwise make one. */
export function requestIdFrom(headers: Record<string, string | string[] | undefined>): string {
  return sanitizeRequestId(headers[REQUEST_ID_HEADER]);
}

/**
 * Echoes the request id and runs the rest of the request inside its context and its span
 * (`gateway.<METHOD> <route>`), so every gRPC call made while serving it carries the same
 * id and trace (CONVENTIONS.md #10).
 */
export const requestContextPlugin = fp(
  async (app: FastifyInstance) => {
    const tracer = trace.getTracer('@authz/gateway');
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      const route = request.routeOptions.url ?? 'unmatched';
      const span = tracer.startSpan(`gateway.${request.method} ${route}`, { kind: SpanKind.SERVER });
      request.span = span;
      context.with(trace.setSpan(context.active(), span), () =>
        runWithRequestContext({ requestId: request.id }, done),
      );
    });
    app.addHook('onResponse', (request, reply, done) => {
      request.span?.setAttribute('http.response.status_code', reply.statusCode);
      request.span?.end();
      done();
    });
  },
  { name: 'request-context' },
);
