import fc from 'fast-check';
import { hostileString } from './hostile-strings.js';

// Queries, forms and JSON bodies for the hostile-input suite: a route's own fields, garbage,
// and valid requests with one or two fields spoiled.

export type Fields = Record<string, fc.Arbitrary<string>>;
export type Pairs = [name: string, value: string][];

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

export function encodedPairs(fields: Fields, valid?: fc.Arbitrary<Pairs>): fc.Arbitrary<string> {
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

export function jsonBody(
  fields: Fields,
  valid?: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<string> {
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
