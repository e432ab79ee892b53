import type { RenderPageResponse } from '@authz/proto/consentui/v1/consentui';
import { DEVICE_PAGE_PATHS, HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import { normalizeError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  consumeLoginBudgets,
  loginOutcome,
  rememberSignInAddress,
  type LoginLimits,
} from '../auth/login-limits.js';
import { consumeAccountDeletionBudgets } from '../auth/account-deletion-limits.js';
import { requestCookies, sessionToken } from '../http/cookies.js';
import { queryFields, requestPath } from '../http/query-fields.js';
import { requestOrigin } from '../http/request-origin.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { formFieldsOf } from '../oauth/form-body.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { walletFlowRateLimit } from '../wallet/wallet-flow-budget.js';
import { loginAttemptOutcome, pageOf } from './page-outcome.js';
import { sendPage } from './send-page.js';

export interface HostedPageRoutesOptions {
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  loginBudget: LoginLimits;
  /** Set while wallet federation is on: the budget of the pages that start a wallet flow. */
  walletFlowBudget?: RateLimitBudget;
  /** POST /ui/register shares POST /auth/register's budget (interface.md 4.10). */
  registerBudget: RateLimitBudget;
  /** POST /ui/account/delete shares DELETE /auth/account's budgets. */
  accountDeletionBudget: RateLimitBudget;
  /** POST /ui/device: user codes entered per address (docs/device-grant.md #4). */
  deviceCodeEntryBudget: RateLimitBudget;
}

/** Stylesheets and images carry no user state; a stale copy for an hour is harmless. */
const ASSET_CACHE_CONTROL = 'public, max-age=3600';

/**
 * interface.md 4.5: consent-ui renders every /ui/* page; the gateway owns HTTP (docs/gateway-routes.md
 * #1). The sign-in submission also gets the login rate limits and metrics of /auth/login.
 */
export async function hostedPageRoutes(
  app: FastifyInstance,
  {
    upstreams,
    metrics,
    loginBudget,
    walletFlowBudget,
    registerBudget,
    accountDeletionBudget,
    deviceCodeEntryBudget,
  }: HostedPageRoutesOptions,
) {
  const answer = (request: FastifyRequest): Promise<RenderPageResponse> =>
    upstreams.hostedPages.renderPage(pageRequest(request));
  const render = async (request: FastifyRequest) => pageOf(await answer(request));

  app.get('/ui/assets/*', async (request, reply) => {
    const page = await render(request);
    return sendPage(reply, page, page.status === 200 ? ASSET_CACHE_CONTROL : undefined);
  });

  app.post(
    '/ui/login',
    // Counted inside the handler so rate-limited attempts show in the metrics, as /auth/login.
    { config: { rateLimit: false } },
    async (request, reply) => {
      try {
        const email = formFieldsOf(request).find((field) => field.name === 'email')?.value;
        await consumeLoginBudgets(request, loginBudget, email);
        const response = await answer(request);
        const page = pageOf(response);
        const outcome = loginAttemptOutcome(response);
        if (outcome === 'success' && email !== undefined)
          await rememberSignInAddress(request, loginBudget, email);
        metrics.loginAttempts.inc({ outcome });
        return sendPage(reply, page);
      } catch (error) {
        metrics.loginAttempts.inc({ outcome: loginOutcome(normalizeError(error)) });
        throw error;
      }
    },
  );

  if (walletFlowBudget) {
    const config = { rateLimit: walletFlowRateLimit(walletFlowBudget) };
    for (const url of [HOSTED_PAGE_PATHS.walletLogin, HOSTED_PAGE_PATHS.walletLink]) {
      app.post(url, { config }, async (request, reply) => sendPage(reply, await render(request)));
    }
  }

  // The account-recovery forms share the per-IP budgets of their JSON routes
  // (auth/account-recovery-routes.ts): a second door must not double the attempts.
  const recoveryForms = [
    [HOSTED_PAGE_PATHS.forgotPassword, 'forgot-password'],
    [HOSTED_PAGE_PATHS.resetPassword, 'reset-password'],
    [HOSTED_PAGE_PATHS.accountPassword, 'change-password'],
    [HOSTED_PAGE_PATHS.accountEmail, 'change-email'],
  ] as const;
  for (const [url, bucket] of recoveryForms) {
    const config = { rateLimit: { bucket, ...loginBudget } };
    app.post(url, { config }, async (request, reply) => sendPage(reply, await render(request)));
  }
  // docs/strong-authentication.md #18: passkey assertions spend a per-address budget of their
  // own size, like the password sign-in's.
  app.post(
    '/ui/login/passkey',
    { config: { rateLimit: { bucket: 'passkey-sign-in', ...loginBudget } } },
    async (request, reply) => sendPage(reply, await render(request)),
  );
  // A second door to sign-up and to the deletion password check must not double their budgets.
  app.post(
    '/ui/register',
    { config: { rateLimit: { bucket: 'register', ...registerBudget } } },
    async (request, reply) => sendPage(reply, await render(request)),
  );
  app.post('/ui/account/delete', async (request, reply) => {
    // The account's budget needs the account: a cookie that signs nobody in counts per address only.
    const token = sessionToken(request);
    const session = token
      ? await upstreams.identity.getBrowserSession({ sessionToken: token }).catch(() => undefined)
      : undefined;
    await consumeAccountDeletionBudgets(request, accountDeletionBudget, session?.user?.id);
    return sendPage(reply, await render(request));
  });

  // RFC 8628 section 5.1: a user code is short, so guessing one is limited per address (an
  // IPv6 address by its /64 and /48, docs/security.md #11) before the code reaches oauth.
  app.post(
    DEVICE_PAGE_PATHS.entry,
    { config: { rateLimit: { bucket: 'device-code-entry', ...deviceCodeEntryBudget } } },
    async (request, reply) => sendPage(reply, await render(request)),
  );

  app.route({
    method: ['GET', 'POST'],
    url: '/ui/*',
    handler: async (request, reply) => sendPage(reply, await render(request)),
  });
}

/** What consent-ui needs of the request: no headers beyond cookies, no query in the path. */
function pageRequest(request: FastifyRequest) {
  const path = requestPath(request);
  return {
    // HEAD is served by the GET handler (Fastify's exposeHeadRoutes).
    method: request.method === 'POST' ? 'POST' : 'GET',
    // The router ignores a trailing slash (docs/decisions.md #22); consent-ui sees one spelling.
    path: path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path,
    query: queryFields(request),
    form: request.method === 'POST' ? formFieldsOf(request) : [],
    cookies: requestCookies(request),
    origin: requestOrigin(request),
  };
}
