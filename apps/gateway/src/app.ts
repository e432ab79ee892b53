import type { Logger } from '@authz/shared/logger';
import { warmUp } from '@authz/shared/health';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { GatewayEnv } from './config/env.js';
import type { GatewayMetrics } from './metrics/gateway-metrics.js';
import { corsPlugin } from './plugins/cors.js';
import { errorHandlerPlugin, clientErrorHandler, frameworkErrorHandler } from './plugins/error-handler.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { lazyChildLoggerFactory } from './plugins/lazy-request-logger.js';
import { requestContextPlugin, requestIdFrom } from './plugins/request-context.js';
import { securityHeaders, securityHeadersPlugin } from './plugins/security-headers.js';
import { createRegistry } from './registry.js';
import { systemRoutes } from './system/routes.js';
import { accountRecoveryRoutes } from './auth/account-recovery-routes.js';
import { accountRoutes } from './auth/account-routes.js';
import { adminRoutes } from './admin/routes.js';
import { authRoutes } from './auth/routes.js';
import { secondFactorRoutes } from './auth/second-factor-routes.js';
import { apiKeyRoutes } from './clients/api-key-routes.js';
import { registrationRoute } from './clients/registration-route.js';
import { clientRoutes } from './clients/routes.js';
import { consentRoutes } from './consents/routes.js';
import { protectedResourceMetadataUrl } from './discovery/protected-resource.js';
import { discoveryRoutes } from './discovery/routes.js';
import { hostedPageRoutes } from './hosted-pages/routes.js';
import { authorizeRoute } from './oauth/authorize-route.js';
import { logoutRoute } from './oauth/logout-route.js';
import { registerJsonParser } from './http/json-body.js';
import { formsOnly, registerFormParser } from './oauth/form-body.js';
import { introspectRoute } from './oauth/introspect-route.js';
import { revokeRoute } from './oauth/revoke-route.js';
import { parRoute } from './oauth/par-route.js';
import { tokenRoute } from './oauth/token-route.js';
import { deviceAuthorizationRoute } from './oauth/device-authorization-route.js';
import { userInfoRoute } from './oauth/userinfo-route.js';
import { openApiPlugin } from './openapi/plugin.js';
import { openApiRoute } from './openapi/route.js';
import { walletRoutes } from './wallet/routes.js';
import { loggedPath } from './http/logged-path.js';

export interface GatewayDeps {
  env: GatewayEnv;
  logger: Logger;
  /**
   * A Redis client to use instead of connecting to env.redisUrl; the caller owns it (ready or
   * not, and closing it). The OpenAPI document is written from an app built with one that
   * never connects (docs/openapi.md).
   */
  redis?: Redis;
  /** Told of every route as it is registered, HEAD and OPTIONS included (docs/openapi.md). */
  onRoute?: (route: RouteOptions) => void;
}

export interface GatewayApp {
  app: FastifyInstance;
  metrics: GatewayMetrics;
  /** Closes the HTTP server, the gRPC channels and Redis. */
  close(): Promise<void>;
}

/** Builds the public HTTP surface; main.ts and tests both listen on what it returns. */
export async function buildGatewayApp({ env, logger, ...deps }: GatewayDeps): Promise<GatewayApp> {
  const redis = deps.redis ?? (await connectRedis(env, logger));
  const registry = createRegistry(env, { redis });
  const { upstreams, metrics } = registry;
  const headers = await securityHeaders();
  const app = Fastify({
    loggerInstance: logger.child({}, { serializers: { req: serializeRequest } }) as FastifyBaseLogger,
    trustProxy: env.trustProxy,
    bodyLimit: env.bodyLimit,
    // Slow-request protection (docs/security.md #6): slow or silent clients cannot hold sockets.
    requestTimeout: env.http.requestTimeoutMs,
    keepAliveTimeout: env.http.keepAliveTimeoutMs,
    connectionTimeout: env.http.connectionTimeoutMs,
    // Node checks the two deadlines every connectionsCheckingInterval (30 s by default).
    http: { headersTimeout: env.http.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    genReqId: (request) => requestIdFrom(request.headers),
    childLoggerFactory: lazyChildLoggerFactory,
    // interface.md 7: one detail per rejected field, so report every field, not the first.
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false } },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler(headers),
    clientErrorHandler: clientErrorHandler(headers),
    // While draining on SIGTERM, a request on a kept-alive connection is still served (its
    // answer says Connection: close, main.ts) rather than refused with Fastify's own 503 body.
    return503OnClosing: false,
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.addHook('onClose', async () => {
    upstreams.close();
    if (!deps.redis) await redis.quit().catch(() => redis.disconnect());
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  await app.register(requestContextPlugin);
  await app.register(errorHandlerPlugin, { resourceMetadataUrl: protectedResourceMetadataUrl(env.issuer) });
  await app.register(securityHeadersPlugin);
  await app.register(corsPlugin);
  await app.register(rateLimitPlugin, {
    redis,
    enabled: env.rateLimit.enabled,
    defaultBudget: env.rateLimit.defaultBudget,
    notFoundBudget: env.rateLimit.notFound,
  });
  // Parsed on demand by the few cookie routes (http/cookies.ts), not on every request.
  await app.register(fastifyCookie, { hook: false });
  registerJsonParser(app);
  registerFormParser(app);
  // Before every route: the document is made from the routes registered after it.
  await app.register(openApiPlugin, { issuer: env.issuer });
  await app.register(openApiRoute);
  await app.register(systemRoutes, { redis, upstreams, metrics: metrics.registry });
  await app.register(discoveryRoutes, { upstreams, issuer: env.issuer });
  await app.register(authRoutes, { upstreams, metrics, budgets: env.rateLimit });
  await app.register(accountRecoveryRoutes, { upstreams, budget: env.rateLimit.login });
  await app.register(accountRoutes, { upstreams, accountDeletionBudget: env.rateLimit.accountDeletion });
  await app.register(secondFactorRoutes, { upstreams });
  await app.register(formsOnly(authorizeRoute), { upstreams });
  await app.register(formsOnly(logoutRoute), { upstreams });
  const authFailureBudget = env.rateLimit.clientAuthFailure;
  await app.register(formsOnly(tokenRoute), { upstreams, metrics, authFailureBudget });
  await app.register(formsOnly(parRoute), { upstreams, authFailureBudget });
  await app.register(formsOnly(deviceAuthorizationRoute), { upstreams, authFailureBudget });
  await app.register(formsOnly(userInfoRoute), { upstreams, invalidTokenBudget: env.rateLimit.invalidToken });
  await app.register(formsOnly(introspectRoute), { upstreams, authFailureBudget });
  await app.register(formsOnly(revokeRoute), { upstreams, authFailureBudget });
  await app.register(clientRoutes, { upstreams, registerClientBudget: env.rateLimit.registerClient });
  await app.register(apiKeyRoutes, { upstreams });
  await app.register(registrationRoute, { upstreams, registerClientBudget: env.rateLimit.registerClient });
  await app.register(formsOnly(hostedPageRoutes), {
    upstreams,
    metrics,
    loginBudget: env.rateLimit.login,
    registerBudget: env.rateLimit.register,
    accountDeletionBudget: env.rateLimit.accountDeletion,
    deviceCodeEntryBudget: env.rateLimit.deviceCodeEntry,
    ...(env.walletFederationEnabled ? { walletFlowBudget: env.rateLimit.walletFlow } : {}),
  });
  await app.register(consentRoutes, { upstreams });
  await app.register(adminRoutes, { upstreams, adminBudget: env.rateLimit.admin });
  await app.register(walletRoutes, {
    address: env.services['wallet-bridge'],
    enabled: env.walletFederationEnabled,
    flowBudget: env.rateLimit.walletFlow,
  });

  return { app, metrics, close: () => app.close() };
}

async function connectRedis(env: GatewayEnv, logger: Logger): Promise<Redis> {
  const redis = createRedisClient(env.redisUrl, {
    name: 'gateway',
    keyPrefix: env.redisKeyPrefix,
    failFast: true,
  });
  await warmUp('cache', () => whenReady(redis), logger);
  return redis;
}

/**
 * Request log lines carry the path only: query strings hold verification tokens, codes and
 * handles, which never belong in logs (docs/conventions.md #10); so do some path segments
 * (logged-path.ts).
 */
function serializeRequest(request: { id: string; method: string; url: string; ip?: string }) {
  return { id: request.id, method: request.method, path: loggedPath(request.url), ip: request.ip };
}

export { loadGatewayEnv, type GatewayEnv } from './config/env.js';
// Values of the public interface that the system tests (the e2e package) assert against.
export { GREETING } from './system/routes.js';
export { HEALTH_DEADLINE_MS } from './system/check-health.js';
export { RESEND_MESSAGE } from './auth/routes.js';
export {
  CHANGE_EMAIL_MESSAGE,
  CHANGE_PASSWORD_MESSAGE,
  FORGOT_PASSWORD_MESSAGE,
  RESET_PASSWORD_MESSAGE,
} from './auth/account-recovery-routes.js';
export { JWKS_CACHE_MS } from './discovery/routes.js';
export { PASSWORD_RESET_SENT_MESSAGE } from './admin/user-routes.js';
export { BINDER_COOKIE } from './wallet/binder-cookie.js';
