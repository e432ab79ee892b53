import { MalformedBodyError, UnsupportedMediaTypeError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `formsOnly`: the route reads form bodies only, and its 415 says so. */
    formBody?: boolean;
  }
}

/**
 * What a 415 of a form-only route tells the client (RFC 6749 section 3.2, appendix B); an OAuth
 * route sends it as `error_description` (docs/errors.md "What a client is told").
 */
export const FORM_BODY_REQUIRED = 'Send the body as application/x-www-form-urlencoded';

export function formBodyRequired(): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError({ attributes: { description: FORM_BODY_REQUIRED } });
}

/** A form body as the ordered list of its fields; repeated names stay separate (RFC 8707). */
export type FormFields = { name: string; value: string }[];

/**
 * application/x-www-form-urlencoded for the OAuth endpoints (RFC 6749 appendix B), parsed
 * with the WHATWG URLSearchParams rules and kept as pairs: grant handlers must see duplicates
 * to refuse them (RFC 6749 section 3.2) or to accept several `resource` values. A field
 * holding U+0000 (`%00`) is refused here: no parameter needs it and PostgreSQL text cannot
 * store it (docs/security.md "Hostile input").
 */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        const fields = toFormFields(new URLSearchParams(body as string));
        if (fields.some(holdsNul)) throw new Error('a field holds U+0000');
        done(null, fields);
      } catch (error) {
        done(new MalformedBodyError({ detail: String(error) }), undefined);
      }
    },
  );
}

/**
 * Wraps the routes of the OAuth wire endpoints or of the hosted pages, which read forms only
 * (RFC 6749 appendix B, interface.md 1 conventions): in their context the form parser is the only
 * one, so any other body is 415 before a route reads it. Otherwise a JSON array would pass
 * for the list of form fields (docs/security.md "Hostile input").
 */
export function formsOnly<Options extends FastifyPluginOptions>(
  routes: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return async (app, options) => {
    app.removeAllContentTypeParsers();
    registerFormParser(app);
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, formBody: true };
    });
    await routes(app, options);
  };
}

/** URLSearchParams (a form body or a query string) as the ordered list of its fields. */
export function toFormFields(parameters: URLSearchParams): FormFields {
  return [...parameters].map(([name, value]) => ({ name, value }));
}

export function holdsNul({ name, value }: FormFields[number]): boolean {
  return name.includes('\u0000') || value.includes('\u0000');
}

/**
 * The fields of a form-only route (authorization endpoint, hosted pages, UserInfo): no body
 * is no fields; a body of any other type is refused with 415 rather than silently ignored.
 */
export function formFieldsOf(request: FastifyRequest): FormFields {
  if (request.body === undefined) return [];
  if (!Array.isArray(request.body)) throw formBodyRequired();
  return request.body as FormFields;
}
