import {
  type AppError,
  MalformedBodyError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
  normalizeError,
  toApiWire,
  toOAuthWire,
  type FieldViolation,
} from '@authz/shared/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** How a route renders failures: the API envelope or the RFC 6749 body (spec section 7). */
export type ErrorFormat = 'api' | 'oauth';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorFormat?: ErrorFormat;
    /**
     * Scheme named in WWW-Authenticate on a 401 (RFC 6750 section 3); Basic only when the
     * client tried it (RFC 6749 section 5.2).
     */
    authChallenge?: 'Bearer' | 'Basic';
  }
  interface FastifyInstance {
    /** The WWW-Authenticate value of a 401 on a Bearer-protected route. */
    bearerChallenge: string;
  }
}

export interface ErrorHandlerOptions {
  /**
   * RFC 9728 section 5.1: Bearer challenges point at the protected-resource metadata of the
   * server's own APIs (the developer API, logout, UserInfo).
   */
  resourceMetadataUrl: string;
}

/** The only place that turns a failure into a response (CONVENTIONS.md #5). */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, { resourceMetadataUrl }: ErrorHandlerOptions) => {
    app.decorate('bearerChallenge', `Bearer realm="authz", resource_metadata="${resourceMetadataUrl}"`);
    app.setErrorHandler((thrown: FastifyError | Error, request, reply) => {
      const error = toAppError(thrown);
      logFailure(request, error, thrown);
      return sendError(request, reply, error);
    });
    app.setNotFoundHandler((request, reply) => sendError(request, reply, new NotFoundError()));
  },
  { name: 'error-handler' },
);

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error instanceof RateLimitedError && error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  const { errorFormat: format = 'api', authChallenge } = request.routeOptions.config ?? {};
  if (error.statusCode === 401 && authChallenge && challenges(request, authChallenge)) {
    reply.header(
      'www-authenticate',
      authChallenge === 'Bearer' ? request.server.bearerChallenge : 'Basic realm="authz"',
    );
  }
  const body = format === 'oauth' ? toOAuthWire(error) : toApiWire(error);
  // RFC 6749 section 5.2: errors are not cached either (Pragma for HTTP/1.0 caches, 5.1).
  reply.header('cache-control', 'no-store');
  if (format === 'oauth') reply.header('pragma', 'no-cache');
  return reply.code(body.statusCode).send(body);
}

/**
 * RFC 6750 section 3: a Bearer-protected resource always challenges. RFC 6749 section 5.2: the
 * token endpoint challenges only a client that tried HTTP Basic, with that scheme.
 */
function challenges(request: FastifyRequest, scheme: 'Bearer' | 'Basic'): boolean {
  return scheme === 'Bearer' || /^basic /i.test(request.headers.authorization ?? '');
}

/** Fastify's own failures (schema validation, body parsing) mapped onto the error model. */
function toAppError(thrown: FastifyError | Error): AppError {
  const fastifyError = thrown as FastifyError;
  if (fastifyError.validation) {
    return new ValidationError(onePerField(fastifyError.validation.map(toFieldViolation)), {
      detail: fastifyError.message,
    });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new MalformedBodyError({ detail: fastifyError.message });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError();
    default:
      return normalizeError(thrown);
  }
}

interface SchemaIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Ajv issue -> `{ path, message }`: a dotted field pointer ("redirectUris.0"). */
function toFieldViolation(issue: SchemaIssue): FieldViolation {
  const segments = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    segments.push(issue.params.missingProperty);
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    segments.push(issue.params.additionalProperty);
  }
  return { path: segments.join('.') || '(body)', message: issue.message ?? 'is invalid' };
}

/** Spec section 7: one entry per rejected field, even when a field broke several rules. */
function onePerField(violations: FieldViolation[]): FieldViolation[] {
  const byPath = new Map<string, FieldViolation>();
  for (const violation of violations) if (!byPath.has(violation.path)) byPath.set(violation.path, violation);
  return [...byPath.values()];
}

function logFailure(request: FastifyRequest, error: AppError, thrown: unknown): void {
  if (error.statusCode >= 500) request.log.error({ err: thrown, code: error.code }, 'request failed');
  else request.log.info({ code: error.code, detail: error.detail }, 'request refused');
}
