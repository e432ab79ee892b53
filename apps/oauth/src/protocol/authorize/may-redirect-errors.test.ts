import { describe, expect, it } from 'vitest';
import { mayRedirectErrors } from './may-redirect-errors.js';

// RFC 9700 section 4.11.2, docs/authorization.md #19.
describe('mayRedirectErrors', () => {
  it.each([
    ['pre_registered', true],
    ['first_party', true],
    ['dynamic', false],
    ['cimd', false],
    ['', false],
  ])('source %j: %s', (source, expected) => {
    expect(mayRedirectErrors({ source })).toBe(expected);
  });
});
