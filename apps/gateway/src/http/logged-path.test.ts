import { describe, expect, it } from 'vitest';
import { loggedPath } from './logged-path.js';

// docs/wallet.md #17: what a request log line shows of the URL.
describe('loggedPath', () => {
  it('drops the query and replaces the presentation request handle', () => {
    const handle = 'A'.repeat(43);
    expect(loggedPath(`/oid4vp/request/${handle}`)).toBe('/oid4vp/request/{handle}');
    expect(loggedPath(`/oid4vp/request/${handle}?x=1`)).toBe('/oid4vp/request/{handle}');
    expect(loggedPath('/ui/wallet-return?response_code=secret')).toBe('/ui/wallet-return');
    expect(loggedPath('/oid4vp/response')).toBe('/oid4vp/response');
    expect(loggedPath(`/ui/wallet-link/${handle}`)).toBe(`/ui/wallet-link/${handle}`);
  });
});
