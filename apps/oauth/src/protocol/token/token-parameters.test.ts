import { InvalidRequestError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { readTokenParameters } from './token-parameters.js';

const raw = (...pairs: [string, string][]) => pairs.map(([name, value]) => ({ name, value }));

describe('readTokenParameters', () => {
  it('refuses a parameter sent twice, even empty (RFC 6749 3.2)', () => {
    expect(() => readTokenParameters(raw(['scope', 'a'], ['scope', 'b']))).toThrow(InvalidRequestError);
    expect(() => readTokenParameters(raw(['scope', ''], ['scope', 'b']))).toThrow(InvalidRequestError);
  });

  it('keeps every resource (RFC 8707) and drops empty values (RFC 6749 3.1)', () => {
    const parameters = readTokenParameters(
      raw(['resource', 'https://a.example'], ['resource', 'https://b.example'], ['scope', '']),
    );
    expect(parameters.getAll('resource')).toEqual(['https://a.example', 'https://b.example']);
    expect(parameters.has('scope')).toBe(false);
  });

  it('hands a grant only what it declared', () => {
    const parameters = readTokenParameters(raw(['refresh_token', 'x'], ['code', 'y'])).pick([
      'refresh_token',
    ]);
    expect(parameters.get('refresh_token')).toBe('x');
    expect(parameters.has('code')).toBe(false);
  });
});
