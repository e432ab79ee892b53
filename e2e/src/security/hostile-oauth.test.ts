import { describe, it } from 'vitest';
import { oauthRoutes } from './hostile-routes/index.js';
import { useHostileSuite } from './hostile-suite.js';

// docs/security.md "Hostile input": generated requests at the OAuth 2.1 endpoints (interface.md 4.3).
const hostile = useHostileSuite();

describe('hostile input at the OAuth endpoints', () => {
  it('never fails, answers RFC 6749 errors, redirects only to registered URIs, writes nothing when refusing', async () => {
    for (const route of oauthRoutes(hostile.fixtures)) await hostile.check(route);
  }, 600_000);
});
