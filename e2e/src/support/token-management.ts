import { TokenService } from '@authz/proto/oauth/v1/oauth';
import { buildOAuthApp, loadOAuthEnv } from '@authz/oauth';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { startService } from '@authz/shared/service';
import { testLogger } from '@authz/shared/testing';
import type { Suite } from './suite.js';
import type { FormField } from './tokens.js';

/** HTTP helpers of the introspection and revocation tests (interface.md 4.3, RFC 7662, RFC 7009). */
export interface FormResponse {
  status: number;
  headers: Headers;
  /** The raw body: revocation answers with an empty one. */
  text: string;
  body: Record<string, unknown> | null;
}

async function postForm(
  suite: Suite,
  path: string,
  fields: FormField[],
  headers: Record<string, string>,
): Promise<FormResponse> {
  const response = await fetch(`${suite.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

export const introspect = (suite: Suite, fields: FormField[], headers: Record<string, string> = {}) =>
  postForm(suite, '/oauth/introspect', fields, headers);

export const revoke = (suite: Suite, fields: FormField[], headers: Record<string, string> = {}) =>
  postForm(suite, '/oauth/revoke', fields, headers);

/** interface.md 4.3: the whole answer about a token that is not active for the caller. */
export const INACTIVE = { active: false };

export interface OAuthReplica {
  tokens: ServiceClient<typeof TokenService>;
  close(): Promise<void>;
}

/**
 * A second oauth instance beside the suite's own, as a scaled-out Deployment runs it
 * (docs/decisions.md #26): same database, Redis, key prefix and keys; `overrides` change settings
 * of this instance only.
 */
export async function startOAuthReplica(
  suite: Suite,
  overrides: Record<string, string> = {},
): Promise<OAuthReplica> {
  const app = await buildOAuthApp({
    env: loadOAuthEnv({ ...suite.oauthEnv, ...overrides }),
    logger: testLogger(),
  });
  const running = await startService(app, '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  return {
    tokens: channel.service(TokenService),
    async close() {
      channel.close();
      await running.close();
    },
  };
}
