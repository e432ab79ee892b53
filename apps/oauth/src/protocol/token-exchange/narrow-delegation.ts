import { InvalidScopeError, InvalidTargetError } from '@authz/shared/errors';
import { parseScope } from '../scope/scope.js';

/**
 * docs/decisions.md #12 and interface.md 5 "Agent scope modes are independent scopes": every requested scope
 * is, as an exact string, both in the subject token's scope and in the cap; nothing requested
 * grants nothing (docs/decisions.md #8). A broader mode never stands in for a narrower one.
 */
export function narrowScope(
  requested: string | undefined,
  subjectScope: readonly string[],
  cap: readonly string[],
): string[] {
  const scope = parseScope(requested);
  const outside = scope.filter((token) => !subjectScope.includes(token) || !cap.includes(token));
  if (outside.length > 0) {
    throw new InvalidScopeError({
      message: 'The requested scope exceeds what the subject token and the client allow',
      detail: `outside subject scope or cap: ${outside.join(' ')}`,
    });
  }
  return scope;
}

/**
 * RFC 8693 section 2.1 (audience, resource) and docs/decisions.md #12: every value named must
 * already be an audience of the subject token (invalid_target otherwise); naming none keeps
 * the subject's aud exactly. One value gives a string, several a list (interface.md 2.5).
 */
export function narrowAudience(named: readonly string[], subjectAud: string | string[]): string | string[] {
  if (named.length === 0) return subjectAud;
  const allowed = Array.isArray(subjectAud) ? subjectAud : [subjectAud];
  const unique = [...new Set(named)];
  const outside = unique.filter((value) => !allowed.includes(value));
  if (outside.length > 0) {
    throw new InvalidTargetError({
      message: 'The requested audience exceeds the subject token audience',
      detail: `outside the subject aud: ${outside.join(' ')}`,
    });
  }
  return unique.length === 1 ? unique[0]! : unique;
}
