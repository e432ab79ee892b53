import { startTelemetry, type Telemetry } from '@authz/shared/telemetry';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountCall, signUp } from '../support/accounts.js';
import { newDeveloper } from '../support/clients.js';
import { introspect } from '../support/token-management.js';
import { basicAuth, machineClient, newClient, requestToken } from '../support/tokens.js';
import { useSuite } from '../support/use-suite.js';

// docs/observability.md "Traces": one trace per request, from the gateway through
// every gRPC hop into Postgres and Redis, with the request id and no secret. Tracing is on for
// this file only; its spans go to memory instead of an OTLP endpoint.
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry | undefined;
beforeAll(() => {
  telemetry = startTelemetry('authz-suite', undefined, {
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
});
// Hooks registered after the one above: the suite starts after tracing and closes before it stops.
const context = useSuite();
afterAll(() => telemetry?.shutdown());

const SERVICES = ['gateway', 'identity', 'oauth', 'clients', 'consent-ui', 'wallet-bridge'];

/** A request's finished trace: its gateway span, once ended (after the response), and the rest. */
async function traceOf(root: string, requestId: string) {
  const gateway = await vi.waitFor(() => {
    const found = exporter
      .getFinishedSpans()
      .find((span) => span.name === root && span.attributes['request.id'] === requestId);
    if (!found) throw new Error(`no finished ${root} span for ${requestId} yet`);
    return found;
  });
  const traceId = gateway.spanContext().traceId;
  const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const named = (name: string) => {
    const matching = spans.filter((span) => span.name === name);
    expect(matching, name).toHaveLength(1);
    return matching[0]!;
  };
  const childrenOf = (parent: ReadableSpan) =>
    spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
  return { gateway, spans, named, childrenOf };
}

function expectChild(child: ReadableSpan, parent: ReadableSpan, kind: SpanKind) {
  expect(child.kind, child.name).toBe(kind);
  expect(child.parentSpanContext?.spanId, child.name).toBe(parent.spanContext().spanId);
}

/** Every attribute value, span name and status message, as one string to search. */
function everythingSaid(spans: ReadableSpan[]): string {
  return JSON.stringify(spans.map((span) => [span.name, span.attributes, span.status, span.events]));
}

describe('tracing through the suite', () => {
  let client: { clientId: string; clientSecret: string; basic: Record<string, string> };
  let accessToken: string;

  it('a client_credentials token request is one trace: gateway > oauth > clients > SQL', async () => {
    const developer = await newDeveloper(context.suite);
    const created = await newClient(context.suite, developer.token, machineClient);
    client = {
      clientId: created.clientId,
      clientSecret: created.clientSecret!,
      basic: basicAuth(created.clientId, created.clientSecret!),
    };
    const response = await requestToken(context.suite, [['grant_type', 'client_credentials']], client.basic);
    expect(response.status).toBe(200);
    accessToken = response.body.access_token as string;
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const { gateway, spans, named, childrenOf } = await traceOf('gateway.POST /oauth/token', requestId);
    // The gateway's span is the root: the public edge starts every trace.
    expect(gateway.kind).toBe(SpanKind.SERVER);
    expect(gateway.parentSpanContext).toBeUndefined();
    expect(gateway.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/oauth/token',
      'http.response.status_code': 200,
      'request.id': requestId,
    });
    // gateway -> oauth.
    const tokenCall = named('gateway.TokenService/Token');
    expectChild(tokenCall, gateway, SpanKind.CLIENT);
    const token = named('oauth.TokenService/Token');
    expectChild(token, tokenCall, SpanKind.SERVER);
    // oauth -> clients: client authentication (a new client: not cached yet).
    const authenticateCall = named('oauth.ClientsService/AuthenticateClient');
    expectChild(authenticateCall, token, SpanKind.CLIENT);
    const authenticate = named('clients.ClientsService/AuthenticateClient');
    expectChild(authenticate, authenticateCall, SpanKind.SERVER);
    expect(authenticate.attributes).toMatchObject({
      'rpc.system': 'grpc',
      'rpc.service': 'authz.clients.v1.ClientsService',
      'rpc.method': 'AuthenticateClient',
      'rpc.grpc.status_code': 0,
    });
    // The clients service reads the client record from Postgres.
    const sql = childrenOf(authenticate).filter((span) => span.name.startsWith('clients.db.'));
    expect(sql.map((span) => span.name)).toContain('clients.db.clients.select');
    expect(sql.every((span) => span.kind === SpanKind.CLIENT)).toBe(true);
    expect(sql.find((span) => span.name === 'clients.db.clients.select')!.attributes).toEqual({
      'db.system.name': 'postgresql',
      'db.operation.name': 'SELECT',
      'db.collection.name': 'clients.clients',
    });
    // No Redis round trip on the way: the token endpoint has no per-address budget, and oauth
    // counts the client's budget in memory, adding it to Redis off the request (docs/security.md #11).
    const redis = spans.filter((span) => span.name.includes('.redis.'));
    expect(redis.map((span) => span.name)).toEqual([]);

    // One trace: every span carrying this request id is in it, and it carries no other.
    const withRequestId = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes['request.id'] === requestId);
    expect(new Set(withRequestId.map((span) => span.spanContext().traceId))).toEqual(
      new Set([gateway.spanContext().traceId]),
    );
    expect(withRequestId.length).toBe(5);
    for (const span of spans) {
      expect(span.name.split('.')[0], span.name).toBeOneOf(SERVICES);
      if ('request.id' in span.attributes) expect(span.attributes['request.id'], span.name).toBe(requestId);
    }
    const said = everythingSaid(spans);
    expect(said).not.toContain(client.clientSecret);
    expect(said).not.toContain(client.basic.authorization!.slice('Basic '.length));
    expect(said).not.toContain(accessToken);
    expect(said).not.toContain(accessToken.split('.')[2]);
  });

  it('introspection checks the deny-list: Redis spans under the oauth span', async () => {
    const response = await introspect(context.suite, [['token', accessToken]], client.basic);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ active: true, client_id: client.clientId });
    const requestId = response.headers.get('x-request-id')!;

    const { spans, named, childrenOf } = await traceOf('gateway.POST /oauth/introspect', requestId);
    const introspection = named('oauth.TokenService/Introspect');
    expectChild(introspection, named('gateway.TokenService/Introspect'), SpanKind.SERVER);
    const redis = childrenOf(introspection).filter((span) => span.name.startsWith('oauth.redis.'));
    expect(redis.length).toBeGreaterThan(0);
    expect(redis.every((span) => span.kind === SpanKind.CLIENT)).toBe(true);
    // The token travelled in the request body and the deny-list key holds its jti: neither shows.
    const { jti } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
      jti: string;
    };
    const said = everythingSaid(spans);
    expect(said).not.toContain(jti);
    expect(said).not.toContain(accessToken.split('.')[1]);
    expect(said).not.toContain(client.clientSecret);
  });

  it('a first-party sign-in carries the request id from oauth into identity', async () => {
    const user = await signUp(context.suite, 'trace');
    const response = await accountCall(context.suite, 'POST', '/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id')!;

    const { named } = await traceOf('gateway.POST /auth/login', requestId);
    const login = named('oauth.TokenService/LoginFirstParty');
    const checkCall = named('oauth.IdentityService/CheckCredentials');
    expectChild(checkCall, login, SpanKind.CLIENT);
    const check = named('identity.IdentityService/CheckCredentials');
    expectChild(check, checkCall, SpanKind.SERVER);
    for (const span of [login, checkCall, check]) {
      expect(span.attributes['request.id'], span.name).toBe(requestId);
    }
    const said = everythingSaid([login, checkCall, check]);
    expect(said).not.toContain(user.password);
  });
});
