import type { FastifySchema, RouteOptions } from 'fastify';
import { headers, schemaRef } from './components.js';
import type { JsonSchema, OperationDoc, OperationDocs, ResponseDoc } from './types.js';

/** What @fastify/swagger hands its `transform` hook for each route. */
interface RouteToDocument {
  schema: FastifySchema | undefined;
  url: string;
  route: Pick<RouteOptions, 'method' | 'url' | 'config'>;
}

/**
 * Routes the document leaves out (docs/openapi.md): CORS preflights (OPTIONS), HEAD (served by
 * the GET handler) and the hosted pages under /ui/, which are HTML rendered by consent-ui.
 */
export function isLeftOut({ method, url }: { method: string | string[]; url: string }): boolean {
  const methods = Array.isArray(method) ? method : [method];
  return url.startsWith('/ui/') || methods.every((name) => name === 'OPTIONS' || name === 'HEAD');
}

/** `/api/clients/:id` as OpenAPI writes it: `/api/clients/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

export function operationKey(method: string, url: string): string {
  return `${method} ${openApiPath(url)}`;
}

/**
 * The `transform` hook: the route's own schemas (what it validates and sends) plus its entry
 * in `docs`. Only the document sees the result; the route's schema object is never changed,
 * so validation and serialisation stay exactly as they were.
 */
export function documentRoutes(docs: OperationDocs) {
  return ({ schema, url, route }: RouteToDocument): { schema: JsonSchema; url: string } => {
    if (isLeftOut(route)) return { schema: { hide: true }, url };
    const doc = typeof route.method === 'string' ? docs[operationKey(route.method, url)] : undefined;
    if (!doc) return { schema: { ...schema }, url };
    return { schema: documentedSchema(schema ?? {}, route, doc), url };
  };
}

function documentedSchema(
  own: FastifySchema,
  route: RouteToDocument['route'],
  doc: OperationDoc,
): JsonSchema {
  return {
    ...own,
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: [doc.tag],
    ...(doc.security === undefined ? {} : { security: doc.security }),
    ...(own.params === undefined && doc.params !== undefined ? { params: doc.params } : {}),
    ...(own.querystring === undefined && doc.querystring !== undefined
      ? { querystring: doc.querystring }
      : {}),
    ...(doc.headers === undefined ? {} : { headers: doc.headers }),
    ...(own.body === undefined && doc.body !== undefined ? { body: { content: mediaTypes(doc.body) } } : {}),
    response: {
      ...errorResponses(route, doc),
      ...responses((own.response ?? {}) as Record<string, JsonSchema>, doc.responses),
    },
  };
}

/** Each documented status: the route's own response schema when it has one, else the documented body. */
function responses(own: Record<string, JsonSchema>, documented: Record<string, ResponseDoc>) {
  // A status only the route knows stays in, without a description (the coverage test refuses that).
  const result: Record<string, JsonSchema> = { ...own };
  for (const [status, { description, content, headers: named }] of Object.entries(documented)) {
    const body = own[status] ?? (content ? { content: mediaTypes(content) } : { type: 'null' });
    // @fastify/swagger's own key for a response's description, kept out of the body schema.
    result[status] = { ...body, 'x-response-description': description, ...(named ? { headers: named } : {}) };
  }
  return result;
}

/**
 * The error answers, in the route's error format (the `errorFormat` route config the error
 * handler reads): the listed ones, 429 where a rate limit applies and 5XX everywhere.
 */
function errorResponses(route: RouteToDocument['route'], doc: OperationDoc): Record<string, JsonSchema> {
  const config = route.config ?? {};
  const listed: Record<string, string> = {
    ...(config.rateLimit === false ? {} : { 429: 'Over the rate limit.' }),
    '5XX': 'A service behind the gateway failed (500), is unreachable (503) or did not answer in time (504).',
    ...doc.errors,
  };
  const result: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(listed)) {
    result[status] = {
      description,
      content: mediaTypes({ 'application/json': errorBody(status, config) }),
      ...errorHeaders(status, config),
    };
  }
  return result;
}

function errorBody(status: string, { errorFormat, authChallenge }: NonNullable<RouteOptions['config']>) {
  if (errorFormat !== 'oauth') return schemaRef('ApiError');
  // RFC 6750 section 3.1: a request to a Bearer resource without a token is told no OAuth error.
  if (status === '401' && authChallenge === 'Bearer') {
    return { anyOf: [schemaRef('OAuthError'), schemaRef('ApiError')] };
  }
  return schemaRef('OAuthError');
}

function errorHeaders(status: string, { authChallenge }: NonNullable<RouteOptions['config']>) {
  if (status === '429') return { headers: { 'Retry-After': headers.retryAfter } };
  if (status === '401' && authChallenge) {
    const challenge =
      authChallenge === 'Bearer' ? headers.wwwAuthenticateBearer : headers.wwwAuthenticateBasic;
    return { headers: { 'WWW-Authenticate': challenge } };
  }
  return {};
}

function mediaTypes(schemas: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  return Object.fromEntries(Object.entries(schemas).map(([type, schema]) => [type, { schema }]));
}
