import {
  type AppError,
  MalformedBodyError,
  MalformedRequestError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
  ValidationError,
  normalizeError,
  toApiWire,
  toOAuthWire,
  type FieldViolation,
} from '@authz/shared/errors';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isHostedPagePath, renderErrorPage } from '../hosted-pages/error-page.js';
import { formBodyRequired } from '../oauth/form-body.js';
import { usesDpopScheme } from '../http/bearer-token.js';
import { DPOP_SIGNING_ALGORITHMS } from '@authz/shared/protocol';
import { REQUEST_ID_HEADER } from './request-context.js';
import { setTransportSecurity } from './security-headers.js';

/**
 * How a route renders failures: the API envelope or the RFC 6749 body (interface.md 7), or for a
 * hosted page (/ui/*, unless a route says otherwise) an HTML page.
 */
export type ErrorFormat = 'api' | 'oauth' | 'page';

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
    /**
     * The WWW-Authenticate value of a Bearer-protected route's refusal, naming the RFC 6750
     * section 3.1 error code when there is one.
     */
    bearerChallenge(error?: string, description?: string): string;
    /** The same for a token presented with the DPoP scheme (RFC 9449 section 7.1). */
    dpopChallenge(error?: string, description?: string): string;
  }
}

export interface ErrorHandlerOptions {
  /**
   * RFC 9728 section 5.1: Bearer challenges point at the protected-resource metadata of the
   * server's own APIs (the developer API, logout, UserInfo).
   */
  resourceMetadataUrl: string;
}

/** The only place that turns a failure into a response (docs/conventions.md #5). */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, { resourceMetadataUrl }: ErrorHandlerOptions) => {
    // RFC 6750 section 3: error_description in the challenge too, when the body has one (our
    // descriptions are plain ASCII without quotes, so they need no escaping).
    app.decorate('bearerChallenge', (error?: string, description?: string) =>
      error === undefined
        ? `Bearer realm="authz", resource_metadata="${resourceMetadataUrl}"`
        : `Bearer realm="authz", error="${error}"${description ? `, error_description="${description}"` : ''}, resource_metadata="${resourceMetadataUrl}"`,
    );
    // RFC 9449 section 7.1: the DPoP scheme names the algorithms a proof may use.
    const algs = `algs="${DPOP_SIGNING_ALGORITHMS.join(' ')}"`;
    app.decorate('dpopChallenge', (error?: string, description?: string) =>
      error === undefined
        ? `DPoP realm="authz", ${algs}`
        : `DPoP realm="authz", error="${error}"${description ? `, error_description="${description}"` : ''}, ${algs}`,
    );
    app.setErrorHandler((thrown: FastifyError | Error, request, reply) => {
      const error = toAppError(thrown, request);
      logFailure(request, error, thrown);
      return sendError(request, reply, error);
    });
    app.setNotFoundHandler((request, reply) => sendError(request, reply, new NotFoundError()));
  },
  { name: 'error-handler' },
);

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs, which
 * Fastify would otherwise answer with its own body naming its internal error code. A path
 * that does not percent-decode is a 400 validation error; a path segment longer than the
 * router's limit (100 characters, beyond every identifier we issue) names nothing, so 404.
 * No onRequest hook has run, so the response gets the security headers and request id here.
 */
export function frameworkErrorHandler(securityHeaders: readonly (readonly [string, string])[]) {
  return (thrown: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const error =
      thrown.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new NotFoundError({ detail: thrown.message })
        : thrown.code === 'FST_ERR_BAD_URL'
          ? new ValidationError([{ path: '(url)', message: 'is not a valid URL' }], {
              detail: thrown.message,
            })
          : normalizeError(thrown);
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    setTransportSecurity(request, reply);
    reply.header(REQUEST_ID_HEADER, request.id);
    logFailure(request, error, thrown);
    return sendError(request, reply, error);
  };
}

/**
 * Fastify's `clientErrorHandler`, Node's `clientError` event: what the HTTP parser refuses
 * before a request exists (a header section over the limit, a malformed request line or
 * header, a request that did not arrive in time). There is no reply to send through, so the
 * envelope of interface.md 7 is written on the socket, which then closes (RFC 9112 section
 * 9.6: the stream cannot be trusted past a parse error).
 */
export function clientErrorHandler(securityHeaders: readonly (readonly [string, string])[]) {
  return function handleClientError(
    this: FastifyInstance,
    thrown: NodeJS.ErrnoException,
    socket: Socket,
  ): void {
    // Node's own rule: a reset socket has nobody to answer, and a response already begun
    // on it cannot be replaced.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (thrown.code === 'ECONNRESET' || socket.destroyed || !socket.writable || pending?.headersSent) {
      socket.destroy(thrown);
      return;
    }
    const error = transportError(thrown);
    this.log.info({ code: error.code, detail: error.detail }, 'connection refused');
    const body = JSON.stringify(toApiWire(error));
    const headers = [
      ...securityHeaders,
      ['cache-control', 'no-store'],
      ['content-type', 'application/json; charset=utf-8'],
      ['content-length', String(Buffer.byteLength(body))],
      ['connection', 'close'],
    ];
    const head = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const status = `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}`;
    socket.end(`${status}\r\n${head}\r\n${body}`, () => socket.destroy());
  };
}

function transportError(thrown: NodeJS.ErrnoException): AppError {
  const init = { detail: `${thrown.code ?? 'unknown'}: ${thrown.message}` };
  switch (thrown.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new RequestHeaderFieldsTooLargeError(init);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError(init);
    default:
      return new MalformedRequestError(init);
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  // A rate limit (429) or an overloaded service (503) says when to retry (docs/errors.md).
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  // RFC 9449 section 8 and 9: the nonce the client's next proof must carry.
  if (error.attributes.dpopNonce) reply.header('dpop-nonce', error.attributes.dpopNonce);
  const { errorFormat, authChallenge } = request.routeOptions.config ?? {};
  const format = errorFormat ?? (isHostedPagePath(request.url) ? 'page' : 'api');
  if (format === 'page') {
    reply.header('cache-control', 'no-store');
    return reply
      .code(error.statusCode)
      .type('text/html; charset=utf-8')
      .send(renderErrorPage(request.url, error));
  }
  const challenge = authChallenge && challengeFor(request, authChallenge, error);
  if (challenge) reply.header('www-authenticate', challenge);
  // RFC 6750 section 3.1: a request without a token is told no error code, in the body either.
  const withoutToken =
    authChallenge === 'Bearer' && !(error instanceof OAuthError) && error.statusCode === 401;
  const body = format === 'oauth' && !withoutToken ? toOAuthWire(error) : toApiWire(error);
  // RFC 6749 section 5.2: errors are not cached either (Pragma for HTTP/1.0 caches, 5.1).
  reply.header('cache-control', 'no-store');
  if (format === 'oauth') reply.header('pragma', 'no-cache');
  return reply.code(body.statusCode).send(body);
}

/** RFC 6750 section 3.1: the error codes a Bearer challenge names. */
const BEARER_ERRORS = new Set(['invalid_request', 'invalid_token', 'insufficient_scope']);
/** RFC 9449 section 7.1: and those of a DPoP challenge. */
const DPOP_ERRORS = new Set([...BEARER_ERRORS, 'invalid_dpop_proof', 'use_dpop_nonce']);

/**
 * RFC 6750 section 3: a Bearer-protected resource always challenges a 401, and names the
 * error when the token was refused for a reason of section 3.1 (also on 400 and 403); a
 * request without a token gets no error code (section 3.1). RFC 6749 section 5.2: the token
 * endpoint challenges only a client that tried HTTP Basic, with that scheme.
 */
function challengeFor(
  request: FastifyRequest,
  scheme: 'Bearer' | 'Basic',
  error: AppError,
): string | undefined {
  if (scheme === 'Basic') {
    return error.statusCode === 401 && /^basic /i.test(request.headers.authorization ?? '')
      ? 'Basic realm="authz"'
      : undefined;
  }
  // RFC 9449 section 7.1: a DPoP challenge when the token came with that scheme, or must.
  const dpop =
    usesDpopScheme(request) ||
    error.attributes.challenge === 'DPoP' ||
    (error instanceof OAuthError && DPOP_ERRORS.has(error.error) && !BEARER_ERRORS.has(error.error));
  const codes = dpop ? DPOP_ERRORS : BEARER_ERRORS;
  const code = error instanceof OAuthError && codes.has(error.error) ? error.error : undefined;
  if (code === undefined && error.statusCode !== 401) return undefined;
  const description = code ? (error as OAuthError).description : undefined;
  return dpop
    ? request.server.dpopChallenge(code, description)
    : request.server.bearerChallenge(code, description);
}

/** Fastify's own failures (schema validation, body parsing) mapped onto the error model. */
function toAppError(thrown: FastifyError | Error, request: FastifyRequest): AppError {
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
      return request.routeOptions.config?.formBody ? formBodyRequired() : new UnsupportedMediaTypeError();
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

/** interface.md 7: one entry per rejected field, even when a field broke several rules. */
function onePerField(violations: FieldViolation[]): FieldViolation[] {
  const byPath = new Map<string, FieldViolation>();
  for (const violation of violations) if (!byPath.has(violation.path)) byPath.set(violation.path, violation);
  return [...byPath.values()];
}

function logFailure(request: FastifyRequest, error: AppError, thrown: unknown): void {
  if (error.statusCode >= 500) request.log.error({ err: thrown, code: error.code }, 'request failed');
  else request.log.info({ code: error.code, detail: error.detail }, 'request refused');
}
