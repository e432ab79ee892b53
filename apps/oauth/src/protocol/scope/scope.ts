import { InvalidScopeError } from '@authz/shared/errors';

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), space-delimited.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The distinct scope tokens of a space-delimited value, in order. */
export function parseScope(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tokens = value.split(' ').filter((token) => token !== '');
  if (!tokens.every((token) => SCOPE_TOKEN.test(token))) {
    throw new InvalidScopeError({ message: 'Malformed scope', detail: 'scope token outside RFC 6749 3.3' });
  }
  return [...new Set(tokens)];
}

export function formatScope(scope: readonly string[]): string {
  return scope.join(' ');
}
