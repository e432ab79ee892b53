import { ValidationError } from '@authz/shared/errors';
import type { FastifyRequest } from 'fastify';
import { holdsNul, toFormFields, type FormFields } from '../oauth/form-body.js';

/**
 * The query string as the ordered list of its fields, parsed from the raw URL with the
 * WHATWG URLSearchParams rules: Fastify's object query would merge repeated names, which
 * the authorization endpoint must see to refuse them (RFC 6749 section 3.1). U+0000 (`%00`)
 * is refused as in a form body (form-body.ts).
 */
export function queryFields(request: FastifyRequest): FormFields {
  const url = request.raw.url ?? '';
  const start = url.indexOf('?');
  if (start < 0) return [];
  const fields = toFormFields(new URLSearchParams(url.slice(start + 1)));
  if (fields.some(holdsNul)) {
    throw new ValidationError([{ path: '(query)', message: 'must not contain the character U+0000' }]);
  }
  return fields;
}

/** The request path without its query string, as sent (still percent-encoded). */
export function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const end = url.indexOf('?');
  return end < 0 ? url : url.slice(0, end);
}
