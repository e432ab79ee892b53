import { AuthorizationService, KeysService, TokenService } from '@authz/proto/oauth/v1/oauth';
import { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { createInvalidationPublisher, invalidationChannel } from '@authz/shared/invalidation';
import { startService } from '@authz/shared/service';
import { serviceTestEnv, testLogger, type TestEnvironment } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { buildOAuthApp, loadOAuthEnv, type OAuthApp } from '../src/app.js';

export interface RunningOAuth {
  app: OAuthApp;
  tokens: ServiceClient<typeof TokenService>;
  authorization: ServiceClient<typeof AuthorizationService>;
  keys: ServiceClient<typeof KeysService>;
  userTokens: ServiceClient<typeof UserTokensService>;
  /** Verifies an access token against this instance's JWKS (as a resource server would). */
  verifyWithJwks(token: string): ReturnType<typeof jwtVerify>;
  /**
   * What identity publishes after it changes a profile (docs/identity.md #25): a test that
   * changes a FakeIdentity user in memory announces it, or oauth's profile cache keeps the old one.
   */
  announceUserChange(userId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The variables of one test file's oauth instances: same keys, so replicas share the database.
 * Without `clientsUrl` only the first-party client can authenticate.
 */
export function oauthTestSource(
  environment: TestEnvironment,
  identityUrl: string,
  clientsUrl?: string,
): NodeJS.ProcessEnv {
  return {
    ...serviceTestEnv(environment),
    REDIS_KEY_PREFIX: environment.redisPrefix,
    IDENTITY_GRPC_URL: identityUrl,
    ...(clientsUrl ? { CLIENTS_GRPC_URL: clientsUrl } : {}),
  };
}

/** Builds and starts one oauth instance on a spare port, with clients talking real gRPC. */
export async function startOAuth(source: NodeJS.ProcessEnv): Promise<RunningOAuth> {
  const env = loadOAuthEnv(source);
  const app = await buildOAuthApp({ env, logger: testLogger() });
  const running = await startService(app, '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  const keys = channel.service(KeysService);
  let publisherConnection: Redis | undefined;
  return {
    app,
    tokens: channel.service(TokenService),
    authorization: channel.service(AuthorizationService),
    keys,
    userTokens: channel.service(UserTokensService),
    async verifyWithJwks(token) {
      const { jwksJson } = await keys.getJwks({});
      return jwtVerify(token, createLocalJWKSet(JSON.parse(jwksJson)));
    },
    async announceUserChange(userId) {
      publisherConnection ??= new Redis(env.redisUrl);
      const changes = createInvalidationPublisher({
        redis: publisherConnection,
        channel: invalidationChannel(env.redisKeyPrefix, 'users'),
        subject: 'user',
        log: testLogger(),
      });
      await changes.publish({ userId, reason: 'changed_by_the_test' });
    },
    async close() {
      await publisherConnection?.quit();
      channel.close();
      await running.close();
    },
  };
}
