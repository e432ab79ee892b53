import { runWithRequestContext, sanitizeRequestId } from '@authz/shared/context';
import { serviceContext } from '@authz/shared/telemetry/spans';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
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
 * id and trace (docs/conventions.md #10).
 *
 * Each request starts a trace of its own: the gateway is the public edge, and following an
 * incoming `traceparent` would let any caller pick our trace ids and sampling decisions.
 * Attributes name the route template, never the URL: query strings carry codes and tokens.
 */
export const requestContextPlugin = fp(
  async (app: FastifyInstance) => {
    const tracer = trace.getTracer('@authz/gateway');
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      const route = request.routeOptions.url ?? 'unmatched';
      const span = tracer.startSpan(
        `gateway.${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'http.route': route },
        },
        ROOT_CONTEXT,
      );
      span.setAttribute('request.id', request.id);
      request.span = span;
      context.with(serviceContext(ROOT_CONTEXT, 'gateway', span), () =>
        runWithRequestContext({ requestId: request.id }, done),
      );
    });
    app.addHook('onResponse', (request, reply, done) => {
      const span = request.span;
      if (span) {
        span.setAttribute('http.response.status_code', reply.statusCode);
        if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      done();
    });
  },
  { name: 'request-context' },
);
