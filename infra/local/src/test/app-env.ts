import { randomBytes } from 'node:crypto';
import { loadClientsEnv } from '@authz/clients';
import { loadConsentUiEnv } from '@authz/consent-ui';
import { loadGatewayEnv } from '@authz/gateway';
import { loadIdentityEnv } from '@authz/identity';
import { loadMailerWorkerEnv } from '@authz/mailer-worker';
import { loadOAuthEnv } from '@authz/oauth';
import { loadWalletBridgeEnv } from '@authz/wallet-bridge';
import type { ServiceRuntimeConfig } from '@authz/shared/env';

/** What the deployment tests read of an app's parsed environment. */
export interface LoadedEnv {
  runtime?: ServiceRuntimeConfig;
  services?: Record<string, string>;
  host?: string;
  port?: number;
}

/**
 * Each app's own start-up validation (src/config/env.ts), built: a deployment's environment
 * is right when the app itself accepts it, and a variable is needed when the app asks for it.
 */
export const ENV_LOADERS: Record<string, (env: NodeJS.ProcessEnv) => LoadedEnv> = {
  gateway: loadGatewayEnv,
  identity: loadIdentityEnv,
  oauth: loadOAuthEnv,
  clients: loadClientsEnv,
  'consent-ui': loadConsentUiEnv,
  'wallet-bridge': loadWalletBridgeEnv,
  'mailer-worker': loadMailerWorkerEnv,
};

/** Valid stand-ins for the secrets: the loaders check their form, never connect. */
export const TEST_SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgresql://authz:test-password@postgres.test:5432/authz',
  REDIS_URL: 'redis://:test-password@redis.test:6379',
  SMTP_URL: 'smtp://user:test-password@smtp.test:587',
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SECRET_HASH_KEY: randomBytes(32).toString('hex'),
};

/** The variables an app's start-up rejects in `env`, as its EnvironmentError names them. */
export function rejectedVariables(app: string, env: NodeJS.ProcessEnv): string[] {
  try {
    ENV_LOADERS[app]!(env);
    return [];
  } catch (error) {
    const problems = (error as { problems?: string[] }).problems;
    if (!problems) throw error;
    return problems.map((problem) => problem.slice(0, problem.indexOf(':'))).sort();
  }
}

/** The variables an app cannot start without: those it rejects when nothing is set. */
export function requiredVariables(app: string): string[] {
  return rejectedVariables(app, {});
}
