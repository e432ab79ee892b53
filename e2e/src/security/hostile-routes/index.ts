/**
 * Every public route of interface.md 4 with the fields it reads and the credentials worth
 * sending, so that generated requests get past the router and the parsers into each route's
 * own checks and, with real credentials, into the services. `numRuns` is per run of the suite:
 * 2,000 for a route, 3,000 for the authorization and token endpoints, 1,000 for the three
 * whose answer depends on nothing a request carries (/, /health, /metrics);
 * HOSTILE_INPUT_RUNS_SCALE multiplies them all (docs/security.md "Hostile input").
 *
 * One file an area, each route listed in the order its suite runs it: auth.ts (system and
 * /auth routes), oauth.ts, developer-api.ts (/api/clients and /consents), pages.ts (hosted
 * pages) and accounts.ts (the account API and pages); the wallet's are in hostile-wallet-routes.ts.
 */
export { accountPageRoutes, accountRoutes } from './accounts.js';
export { authRoutes, systemRoutes } from './auth.js';
export { developerRoutes } from './developer-api.js';
export { oauthRoutes } from './oauth.js';
export { pageRoutes } from './pages.js';
