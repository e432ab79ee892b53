import { MalformedBodyError } from '@authz/shared/errors';
import type { FastifyInstance } from 'fastify';

/** A form body as the ordered list of its fields; repeated names stay separate (RFC 8707). */
export type FormFields = { name: string; value: string }[];

/**
 * application/x-www-form-urlencoded for the OAuth endpoints (RFC 6749 appendix B), parsed
 * with the WHATWG URLSearchParams rules and kept as pairs: grant handlers must see duplicates
 * to refuse them (RFC 6749 section 3.2) or to accept several `resource` values.
 */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        const fields: FormFields = [...new URLSearchParams(body as string)].map(([name, value]) => ({
          name,
          value,
        }));
        done(null, fields);
      } catch (error) {
        done(new MalformedBodyError({ detail: String(error) }), undefined);
      }
    },
  );
}
