import { InvalidScopeError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { checkClientScope } from './check-client-scope.js';

describe('client scope (interface.md 5, docs/decisions.md #8)', () => {
  const client = { scopes: ['read', 'write'] };

  it('grants what was requested within the allow-list, nothing when nothing was requested', () => {
    expect(checkClientScope(client, 'write read write')).toEqual(['write', 'read']);
    expect(checkClientScope(client, undefined)).toEqual([]);
  });

  it('refuses anything outside the allow-list', () => {
    expect(() => checkClientScope(client, 'read admin')).toThrow(InvalidScopeError);
    expect(() => checkClientScope({ scopes: [] }, 'read')).toThrow(InvalidScopeError);
  });
});
