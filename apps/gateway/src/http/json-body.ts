import { MalformedBodyError } from '@authz/shared/errors';
import type { FastifyInstance } from 'fastify';
import { holdsUnstorableString } from '@authz/shared/protocol';

/**
 * Deepest nesting a JSON body may have. The deepest document the API takes (RFC 7591 client
 * metadata with a JWKS) nests four levels; JSON.stringify, which the registration route and
 * the services run on what they receive, overflows the stack near 5,000.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * application/json with Fastify's own parser (`__proto__` and `constructor` keys refused),
 * plus what would otherwise fail further in, as a 400 (MALFORMED_BODY, or invalid_request on
 * the OAuth routes): nesting deeper than MAX_JSON_DEPTH, and strings (names or values) holding
 * U+0000 or a lone surrogate (`"\ud800"`). No field needs either; PostgreSQL text cannot store
 * U+0000 and the database driver refuses a lone surrogate in a JSON column. Forms and queries
 * cannot carry a lone surrogate (percent-decoding yields U+FFFD); U+0000 is refused there in
 * form-body.ts.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestingDepth(text) > MAX_JSON_DEPTH) {
      done(new MalformedBodyError({ detail: `nested deeper than ${MAX_JSON_DEPTH} levels` }), undefined);
      return;
    }
    parse(request, text, (error, value) => {
      if (error) return done(error, undefined);
      if (holdsUnstorableString(value)) {
        return done(
          new MalformedBodyError({ detail: 'a string holds U+0000 or a lone surrogate' }),
          undefined,
        );
      }
      return done(null, value);
    });
  });
}

/** The deepest object or array nesting of JSON text, strings skipped. Text that is not JSON is left to the parser. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      depth += 1;
      deepest = Math.max(deepest, depth);
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
  return deepest;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
