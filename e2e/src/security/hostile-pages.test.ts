import { describe, it } from 'vitest';
import { pageRoutes } from './hostile-routes/index.js';
import { useHostileSuite } from './hostile-suite.js';

// docs/security.md "Hostile input": generated requests at the hosted pages (interface.md 4.5).
const hostile = useHostileSuite();

describe('hostile input at /ui/*', () => {
  it('never fails, answers HTML pages without script or the envelope, writes nothing when refusing', async () => {
    for (const route of pageRoutes(hostile.fixtures)) await hostile.check(route);
  }, 600_000);
});
