import { InvalidTargetError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { checkSelfRegisteredResource } from './check-self-registered-resource.js';

describe('resources of self-registered clients (docs/decisions.md #9)', () => {
  it('refuses a resource from a dynamic or CIMD client', () => {
    for (const source of ['dynamic', 'cimd', '']) {
      expect(() => checkSelfRegisteredResource({ source }, ['https://api.example'])).toThrow(
        InvalidTargetError,
      );
    }
  });

  it('lets them ask without a resource, and owned clients name one', () => {
    for (const source of ['dynamic', 'cimd']) {
      expect(() => checkSelfRegisteredResource({ source }, [])).not.toThrow();
    }
    for (const source of ['pre_registered', 'first_party']) {
      expect(() => checkSelfRegisteredResource({ source }, ['https://api.example'])).not.toThrow();
    }
  });
});
