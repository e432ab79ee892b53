/**
 * What every gateway response must be, whatever was sent (docs/security.md "Hostile input"):
 * never a 5xx; errors in the documented envelope of their route (interface.md 7: the API envelope or
 * the RFC 6749 body; HTML for the hosted pages and the authorization endpoint's error page);
 * the security headers; Cache-Control no-store unless the route is public and cacheable; no
 * redirect anywhere but our own pages and a registered redirect URI; nothing internal (a
 * stack, a file, a query) and no secret of the suite in the body or a header.
 */
export interface ObservedResponse {
  method: string;
  /** The request path, without the query. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface InvariantContext {
  issuer: string;
  /** Redirect URIs registered by the suite's clients: the only places a redirect may leave to. */
  redirectUris: readonly string[];
  /** Values that must never appear in a response: passwords, secrets, tokens, keys. */
  secrets: readonly string[];
}

/** The registered RFC 6749 / 6750 / 7591 / 8707 / OIDC tokens the server uses (interface.md 7). */
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
  'temporarily_unavailable',
  'invalid_target',
  'invalid_token',
  'insufficient_scope',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'login_required',
  'consent_required',
  'interaction_required',
  'rate_limited',
  // RFC 8628 section 3.5 (interface.md 4.13).
  'authorization_pending',
  'slow_down',
  'expired_token',
]);

/** Routes whose errors are RFC 6749 bodies (errorFormat 'oauth'); every other route's are the API envelope. */
const OAUTH_ROUTES = new Set([
  'GET /oauth/authorize',
  'POST /oauth/authorize',
  // interface.md 4.3: RP-initiated logout renders its refusals like /oauth/authorize's.
  'GET /oauth/logout',
  'POST /oauth/logout',
  'POST /oauth/token',
  'POST /oauth/introspect',
  'POST /oauth/revoke',
  'POST /oauth/device_authorization',
  'POST /oauth/register',
  'GET /oauth/userinfo',
  'POST /oauth/userinfo',
  // OID4VP 1.0 section 8.2: the wallet's direct_post endpoint speaks OAuth errors.
  'POST /oid4vp/response',
]);

/** Public, cacheable 200s (interface.md 4.4 discovery; the hosted pages' stylesheet). */
const CACHEABLE = /^\/(\.well-known\/|ui\/assets\/)/;
const PUBLIC_CACHE_CONTROL = 'public, max-age=3600';

/** What would betray internals: stack frames, source files, framework, driver and SQL errors. */
const INTERNALS: [string, RegExp][] = [
  ['a stack frame', /\n\s+at \S|\bat \S+ \(\S+:\d+:\d+\)/],
  ['a source file', /node_modules|\.[cm]?[jt]s:\d+/],
  ['an error class name', /\b(TypeError|RangeError|SyntaxError|ReferenceError|PrismaClient\w*Error)\b/],
  ['a framework error code', /\bFST_ERR_|\bERR_[A-Z_]{4,}/],
  ['a database error', /SQLSTATE|syntax error at or near|violates [a-z ]*constraint|duplicate key value/i],
  ['a network error', /ECONNREFUSED|ECONNRESET|ETIMEDOUT/],
  ['a gRPC status', /\b\d+ (UNAVAILABLE|INTERNAL|UNKNOWN|DEADLINE_EXCEEDED):/],
];

/** The problems of one response; empty when it keeps every invariant. */
export function responseProblems(response: ObservedResponse, context: InvariantContext): string[] {
  return [
    ...statusProblems(response),
    ...headerProblems(response),
    ...bodyProblems(response),
    ...redirectProblems(response, context),
    ...leakProblems(response, context),
  ];
}

function statusProblems({ status }: ObservedResponse): string[] {
  return status >= 500 ? [`answered ${status}`] : [];
}

function header(response: ObservedResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
}

function headerProblems(response: ObservedResponse): string[] {
  const problems: string[] = [];
  const expect = (name: string, ok: (value: string | undefined) => boolean) => {
    const value = header(response, name);
    if (!ok(value)) problems.push(`header ${name}: ${value ?? '(absent)'}`);
  };
  expect('x-content-type-options', (value) => value === 'nosniff');
  expect('x-frame-options', (value) => value === 'DENY');
  expect('referrer-policy', (value) => value === 'no-referrer');
  // The suites speak plain http to the gateway: RFC 6797 section 7.2 forbids HSTS there.
  expect('strict-transport-security', (value) => value === undefined);
  expect(
    'content-security-policy',
    (value) =>
      value !== undefined &&
      value.includes("frame-ancestors 'none'") &&
      value.includes("default-src 'none'") &&
      !/unsafe-inline|unsafe-eval/.test(value),
  );
  // Only the public documents may be cached; anything else, errors included, is no-store.
  const cacheable = response.status === 200 && CACHEABLE.test(response.path);
  expect('cache-control', (value) => value === 'no-store' || (cacheable && value === PUBLIC_CACHE_CONTROL));
  return problems;
}

function bodyProblems(response: ObservedResponse): string[] {
  const type = header(response, 'content-type') ?? '';
  const { status, body, method } = response;
  if (method === 'HEAD' || status === 204 || (status >= 300 && status < 400)) {
    return body === '' ? [] : ['a body on a response that has none'];
  }
  if (type.startsWith('text/html')) return htmlProblems(response);
  if (type.startsWith('application/json')) return jsonProblems(response);
  // The OID4VP request object (interface.md 4.9): a compact JWS, at its own route only.
  if (type.startsWith('application/oauth-authz-req+jwt')) {
    const compactJws = /^[\w-]+\.[\w-]+\.[\w-]+$/.test(body);
    return status === 200 && response.path.startsWith('/oid4vp/request/') && compactJws
      ? []
      : [`a request object (${status}) at ${response.path}`];
  }
  // Revocation's empty 200 (RFC 7009 section 2.2), the metrics text, the stylesheet.
  if (status < 400 && (body === '' || type.startsWith('text/'))) return [];
  return [`content type ${type || '(none)'} with status ${status}`];
}

const OWN_SCRIPTS = /<script src="\/ui\/assets\/(webauthn|passkeys)\.js\?v=[0-9a-f]{16}" defer><\/script>/g;

function htmlProblems({ path, status, body }: ObservedResponse): string[] {
  const problems: string[] = [];
  const errorPage = /^\/oauth\/(authorize|logout)\b/.test(path) && status === 400;
  if (!path.startsWith('/ui/') && !errorPage) {
    problems.push(`an HTML page at ${path}`);
  }
  if (!/^<!doctype html>/i.test(body.trimStart())) problems.push('HTML that is not a document');
  // The pages carry no script but the passkey ceremonies' two files of our own origin, loaded by
  // the pages that run one (docs/strong-authentication.md); any other would be reflected input.
  if (/<script/i.test(body.replace(OWN_SCRIPTS, ''))) problems.push('a <script> element in a page');
  return problems;
}

function jsonProblems(response: ObservedResponse): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return ['JSON content type with a body that is not JSON'];
  }
  if (response.status < 400) return [];
  const route = routeKey(response);
  const isApi = apiEnvelopeProblems(parsed, response);
  const isOAuth = oauthEnvelopeProblems(parsed, response.status);
  // RFC 6750 section 3.1: a Bearer route asked without a token answers the plain envelope; a
  // refused token is invalid_token, with its error_description (docs/errors.md).
  const withoutToken =
    route.endsWith('/userinfo') &&
    response.status === 401 &&
    !(isObject(parsed) && parsed.error === 'invalid_token');
  const oauthRoute = OAUTH_ROUTES.has(route) && !withoutToken;
  if (oauthRoute) return isOAuth;
  return isApi;
}

function routeKey({ method, path }: ObservedResponse): string {
  // The path the route saw: dot segments resolved as the request's URL is parsed (RFC 3986
  // 5.2.4), so `/consents/.` is the consents route.
  let resolved = path;
  try {
    resolved = new URL(path, 'http://route.invalid').pathname;
  } catch {
    // Left as sent.
  }
  let decoded = resolved;
  try {
    decoded = decodeURIComponent(resolved);
  } catch {
    // Left as sent: the router refuses it too.
  }
  const trimmed = decoded.length > 1 && decoded.endsWith('/') ? decoded.slice(0, -1) : decoded;
  return `${method === 'HEAD' ? 'GET' : method} ${trimmed}`;
}

/** interface.md 7: `{ error, statusCode, code?, details? }`; docs/decisions.md #20 adds `consents: []`. */
function apiEnvelopeProblems(body: unknown, response: ObservedResponse): string[] {
  if (!isObject(body)) return ['an error body that is not an object'];
  const problems: string[] = [];
  const allowed = new Set(['error', 'statusCode', 'code', 'details']);
  if (routeKey(response) === 'GET /consents' && response.status === 401) allowed.add('consents');
  for (const key of Object.keys(body)) if (!allowed.has(key)) problems.push(`envelope member ${key}`);
  if (typeof body.error !== 'string' || body.error === '') problems.push('envelope without error');
  if (body.statusCode !== response.status) problems.push(`envelope statusCode ${String(body.statusCode)}`);
  if (typeof body.code !== 'string' || !/^[A-Z][A-Z_]*$/.test(body.code)) problems.push('envelope code');
  if (body.consents !== undefined && !(Array.isArray(body.consents) && body.consents.length === 0)) {
    problems.push('consents listed in an error');
  }
  if (body.details !== undefined && !areFieldViolations(body.details)) problems.push('envelope details');
  return problems;
}

function areFieldViolations(details: unknown): boolean {
  return (
    Array.isArray(details) &&
    details.length > 0 &&
    details.every(
      (detail) =>
        isObject(detail) &&
        Object.keys(detail).sort().join() === 'message,path' &&
        typeof detail.path === 'string' &&
        typeof detail.message === 'string',
    )
  );
}

/** RFC 6749 section 5.2 plus `code` and `statusCode` (interface.md 7). */
function oauthEnvelopeProblems(body: unknown, status: number): string[] {
  if (!isObject(body)) return ['an error body that is not an object'];
  const problems: string[] = [];
  const allowed = new Set(['error', 'error_description', 'code', 'statusCode']);
  for (const key of Object.keys(body)) if (!allowed.has(key)) problems.push(`OAuth error member ${key}`);
  if (typeof body.error !== 'string' || !OAUTH_ERRORS.has(body.error)) {
    problems.push(`OAuth error ${String(body.error)}`);
  } else if (body.code !== body.error.toUpperCase()) {
    problems.push('OAuth error code');
  }
  if (body.statusCode !== status) problems.push(`OAuth statusCode ${String(body.statusCode)}`);
  if (body.error_description !== undefined && typeof body.error_description !== 'string') {
    problems.push('error_description');
  }
  return problems;
}

/**
 * No open redirector (RFC 9700 section 4.11): a redirect goes to one of our own pages or to a
 * registered redirect URI exactly, with the response parameters appended.
 */
function redirectProblems(response: ObservedResponse, { issuer, redirectUris }: InvariantContext): string[] {
  if (response.status < 300 || response.status >= 400) return [];
  const location = header(response, 'location');
  if (location === undefined) return ['a redirect without Location'];
  if (location.startsWith(`${issuer}/`)) return [];
  // A path-absolute reference (RFC 3986 section 4.2) under the issuer's path stays on our origin:
  // the hosted pages link to each other that way (docs/hosted-pages.md #11).
  const issuerPath = new URL(issuer).pathname.replace(/\/+$/, '');
  if (location.startsWith(`${issuerPath}/`) && !location.startsWith('//') && !location.includes('\\'))
    return [];
  const registered = redirectUris.some(
    (uri) => location.startsWith(`${uri}?`) || (uri.includes('?') && location.startsWith(`${uri}&`)),
  );
  return registered ? [] : [`a redirect to ${location}`];
}

function leakProblems(response: ObservedResponse, { secrets }: InvariantContext): string[] {
  const texts = [
    response.body,
    ...Object.entries(response.headers)
      .filter(([name]) => name !== 'content-security-policy')
      .map(([, value]) => (Array.isArray(value) ? value.join('\n') : String(value))),
  ];
  const problems: string[] = [];
  for (const [what, pattern] of INTERNALS) {
    if (texts.some((text) => pattern.test(text))) problems.push(`${what} in the response`);
  }
  for (const secret of secrets) {
    if (texts.some((text) => text.includes(secret))) problems.push(`a secret of the suite in the response`);
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
