import { InvalidTargetError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { resolveAudience } from '../client-authentication/authenticated-client.js';
import { checkResource } from './check-resource.js';

const withoutList = { audienceList: [], audience: 'client-1' };
const withList = { audienceList: ['https://api.example', 'urn:example:billing'], audience: ['x'] };

describe('aud resolution (interface.md 2.5)', () => {
  it('gives an array for several entries, the entry for one, the client id for none', () => {
    expect(resolveAudience(['https://a.example', 'https://b.example'], 'c')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(resolveAudience(['https://a.example'], 'c')).toBe('https://a.example');
    expect(resolveAudience([], 'c')).toBe('c');
  });
});

describe('resource indicators (RFC 8707 section 2, docs/decisions.md #9)', () => {
  it('keeps the client audience when no resource is named', () => {
    expect(checkResource(withoutList, [])).toBe('client-1');
  });

  it('lets a client without an audience list name any absolute URI without a fragment', () => {
    expect(checkResource(withoutList, ['https://api.example/v1?x=1'])).toBe('https://api.example/v1?x=1');
    expect(checkResource(withoutList, ['urn:example:api', 'https://b.example', 'urn:example:api'])).toEqual([
      'urn:example:api',
      'https://b.example',
    ]);
    for (const resource of ['/relative', 'api.example', 'https://api.example/#top', 'https://a b.example']) {
      expect(() => checkResource(withoutList, [resource])).toThrow(InvalidTargetError);
    }
  });

  it('lets a client with an audience list name only its entries', () => {
    expect(checkResource(withList, ['urn:example:billing'])).toBe('urn:example:billing');
    expect(checkResource(withList, ['https://api.example', 'urn:example:billing'])).toEqual([
      'https://api.example',
      'urn:example:billing',
    ]);
    expect(() => checkResource(withList, ['https://api.example', 'https://other.example'])).toThrow(
      InvalidTargetError,
    );
  });
});
