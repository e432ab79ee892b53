import fc from 'fast-check';
import { encodedPairs, jsonBody, type Fields, type Pairs } from './hostile-bodies.js';
import { headerValue } from './hostile-strings.js';

/** One request as sent to the gateway's `inject`: raw path and query, headers, raw body. */
export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';

/** A public route and what it reads, so generated requests reach its checks, not only the router's. */
export interface RouteSpec {
  name: string;
  methods: Method[];
  /** Concrete paths (already percent-encoded), e.g. with a real or a hostile identifier. */
  path: fc.Arbitrary<string>;
  /** Query parameters it reads, each with values worth trying. */
  query?: Fields;
  /** A valid query, of which most generated queries change a field or two. */
  validQuery?: fc.Arbitrary<Pairs>;
  /** Body members it reads: a form (OAuth endpoints, hosted pages) or JSON (APIs), and a valid body. */
  body?:
    | { type: 'form'; fields: Fields; valid?: fc.Arbitrary<Pairs> }
    | { type: 'json'; fields: Fields; valid?: fc.Arbitrary<Record<string, unknown>> };
  /** Credentials and other headers worth sending (Authorization, Cookie, X-CSRF-Token). */
  headers?: fc.Arbitrary<Record<string, string>>;
  /** Generated requests per run of the suite. */
  numRuns: number;
}

const CONTENT_TYPES = {
  form: 'application/x-www-form-urlencoded',
  json: 'application/json',
} as const;

/** The right type most of the time, else a wrong, odd or malformed one (or none). */
function contentType(type: 'form' | 'json' | undefined): fc.Arbitrary<string | undefined> {
  const wrong = fc.constantFrom(
    undefined,
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded; charset=iso-8859-1',
    'application/json',
    'application/x-www-form-urlencoded',
    'APPLICATION/JSON',
    'application/jsonx',
    'application/*',
    ';;;',
  );
  const odd = headerValue;
  if (type === undefined) return fc.oneof({ weight: 3, arbitrary: wrong }, { weight: 1, arbitrary: odd });
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(CONTENT_TYPES[type]) },
    { weight: 2, arbitrary: wrong },
    { weight: 1, arbitrary: odd },
  );
}

/** Headers nobody should trust or choke on. */
const noiseHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'x-request-id': headerValue,
    'x-forwarded-for': fc.oneof(headerValue, fc.constant('203.0.113.7, 10.0.0.1')),
    'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher', ''),
    'x-forwarded-host': fc.oneof(headerValue, fc.constant('evil.example')),
    accept: fc.oneof(headerValue, fc.constantFrom('text/html', 'application/json', '*/*')),
    origin: fc.oneof(headerValue, fc.constant('https://evil.example')),
    'user-agent': headerValue,
    cookie: fc.oneof(headerValue, fc.constant('a=b; a=c; =; ;;')),
    authorization: fc.oneof(
      headerValue,
      fc.constantFrom('Bearer', 'Bearer ', 'Basic', 'Basic ====', 'Basic Og==', 'Digest x', 'Bearer a b'),
      headerValue.map((value) => `Basic ${Buffer.from(value, 'latin1').toString('base64')}`),
    ),
  },
  { requiredKeys: [] },
);

export interface RequestOptions {
  /** Largest body the gateway accepts: the oversized bodies go just past it. */
  bodyLimit: number;
}

/** Requests aimed at `route`: mostly its own method, path, fields and credentials, each hostile in turn. */
export function hostileRequests(
  route: RouteSpec,
  { bodyLimit }: RequestOptions,
): fc.Arbitrary<HostileRequest> {
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...route.methods) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Method>('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    },
  );
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: encodedPairs(route.query ?? {}, route.validQuery) },
  );
  const bodyType = route.body?.type;
  const fields = route.body?.fields ?? {};
  const own =
    route.body?.type === 'json'
      ? jsonBody(fields, route.body.valid)
      : encodedPairs(fields, route.body?.type === 'form' ? route.body.valid : undefined);
  const other = route.body?.type === 'json' ? encodedPairs(fields) : jsonBody(fields);
  // Its own body type mostly, the other one too: the content type may say either (below).
  const body: fc.Arbitrary<string | undefined> = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 12, arbitrary: own },
    { weight: 4, arbitrary: other },
    // Past the limit: 413 before anything reads it.
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 1024 }).map((extra) => 'a='.padEnd(bodyLimit + extra, 'a')),
    },
  );
  return fc
    .record({
      method,
      path: route.path,
      query,
      body,
      type: contentType(bodyType),
      credentials: route.headers ?? fc.constant({}),
      noise: noiseHeaders,
    })
    .map(({ method: verb, path, query: search, body: payload, type, credentials, noise }) => {
      const headers: Record<string, string> = { ...noise, ...credentials };
      if (type !== undefined && payload !== undefined) headers['content-type'] = type;
      return {
        method: verb,
        url: search === '' ? path : `${path}?${search}`,
        headers,
        ...(payload === undefined || verb === 'GET' || verb === 'HEAD' ? {} : { payload }),
      };
    });
}
