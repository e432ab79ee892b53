import { describe, expect, it } from 'vitest';
import { tokenKindsToTry } from './token-type-hint.js';

describe('tokenKindsToTry (RFC 7009 section 2.1, RFC 7662 section 2.1)', () => {
  it('looks at the hinted kind first, then the other', () => {
    expect(tokenKindsToTry('refresh_token')).toEqual(['refresh_token', 'access_token']);
    expect(tokenKindsToTry('access_token')).toEqual(['access_token', 'refresh_token']);
  });

  it('ignores a missing or unknown hint', () => {
    expect(tokenKindsToTry(undefined)).toEqual(['access_token', 'refresh_token']);
    expect(tokenKindsToTry('id_token')).toEqual(['access_token', 'refresh_token']);
  });
});
