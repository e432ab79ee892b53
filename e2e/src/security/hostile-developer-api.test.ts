import { describe, it } from 'vitest';
import { developerRoutes } from './hostile-routes/index.js';
import { useHostileSuite } from './hostile-suite.js';

// docs/security.md "Hostile input": generated requests at the developer API (interface.md 4.7, 4.8)
// and the consents API (4.6), with and without real credentials.
const hostile = useHostileSuite();

describe('hostile input at /api/clients/** and /consents/**', () => {
  it('never fails, answers the envelope, writes nothing when refusing', async () => {
    for (const route of developerRoutes(hostile.fixtures)) await hostile.check(route);
  }, 600_000);
});
