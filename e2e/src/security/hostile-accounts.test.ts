import { describe, it } from 'vitest';
import { accountPageRoutes, accountRoutes } from './hostile-routes/index.js';
import { useHostileSuite } from './hostile-suite.js';

// docs/security.md "Hostile input": generated requests at the account lifecycle routes and
// pages of interface.md 4.10.
const hostile = useHostileSuite();

describe('hostile input at the account API and pages', () => {
  it('/auth/sessions, /auth/account, /auth/me: never fail, answer the envelope, write nothing when refusing', async () => {
    for (const route of accountRoutes(hostile.fixtures)) await hostile.check(route);
  }, 900_000);

  it('/ui/register and /ui/account: never fail, answer pages without script, write nothing when refusing', async () => {
    for (const route of accountPageRoutes(hostile.fixtures)) await hostile.check(route);
  }, 900_000);
});
