import { TokenParameters, type RawParameter } from '../token/token-parameters.js';

// RFC 8707 section 2: resource may be sent more than once.
const REPEATABLE = new Set(['resource']);

/** The query or form of an authorization request, with the names that were sent twice. */
export interface AuthorizationParameters {
  values: TokenParameters;
  /** RFC 6749 section 3.1: refused, but where the error goes depends on the name. */
  duplicated: ReadonlySet<string>;
}

/**
 * RFC 6749 section 3.1: parameters sent without a value are treated as omitted; none may be
 * sent more than once. Duplicates are only noted here: a duplicated client_id or redirect_uri
 * is an error page, any other an error redirect (docs/authorization.md #2).
 */
export function readAuthorizationParameters(raw: readonly RawParameter[]): AuthorizationParameters {
  const values = new Map<string, string[]>();
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const { name, value } of raw) {
    if (seen.has(name) && !REPEATABLE.has(name)) duplicated.add(name);
    seen.add(name);
    if (value !== '') values.set(name, [...(values.get(name) ?? []), value]);
  }
  return { values: new TokenParameters(values), duplicated };
}
