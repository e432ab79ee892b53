import type { LoadTarget } from './load/run-load.js';
import { SCENARIO_NAMES, type ScenarioName } from './scenario-names.js';
import { DpopSigner, SIGNED_AHEAD_LIFETIME_MS } from './load/dpop-signer.js';
import { CLIENT_CREDENTIALS_BODY, type MachineClient } from './suite/fixtures.js';
import type { UserToken } from './suite/user-token.js';

export interface Scenario {
  name: string;
  target: LoadTarget;
  /** Why a first request that does not answer 200 means "skip" rather than "measure errors". */
  notReadyReason?: (status: number) => string | undefined;
  /** Run once before the probe (the DPoP scenario learns the server's nonce). */
  prepare?: () => Promise<void>;
  /** Run between the warm-up and the measured window, with the pace the warm-up reached. */
  beforeWindow?: (window: { requestsPerSecond: number; durationSeconds: number }) => void;
  /** What the scenario adds to the measured window's figures (printed after them). */
  describeWindow?: () => string;
}

const FORM = 'application/x-www-form-urlencoded';

export function clientCredentials(tokenUrl: string, authorization: string): Scenario {
  return {
    name: 'client_credentials',
    target: {
      url: tokenUrl,
      method: 'POST',
      headers: { authorization, 'content-type': FORM },
      body: CLIENT_CREDENTIALS_BODY,
    },
  };
}

/**
 * The client_credentials load with a fresh DPoP proof per request (RFC 9449, docs/performance.md
 * "DPoP"): the cost of proof verification, the jti replay claim in Redis and the nonce. The
 * measured window's proofs are signed before it, as clients on other machines would sign them.
 */
export function clientCredentialsDpop(tokenUrl: string, authorization: string): Scenario {
  const signer = new DpopSigner('POST', tokenUrl);
  return {
    name: 'client_credentials_dpop',
    target: {
      ...clientCredentials(tokenUrl, authorization).target,
      perRequest: {
        headers: () => ({ dpop: signer.proof() }),
        onResponseHeaders: (headers) => signer.observe(headers['dpop-nonce'] as string | undefined),
      },
    },
    // RFC 9449 section 8: the first proof is answered with the nonce the others carry.
    prepare: async () => {
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { authorization, 'content-type': FORM, dpop: signer.proof() },
        body: CLIENT_CREDENTIALS_BODY,
      });
      await response.arrayBuffer();
      signer.observe(response.headers.get('dpop-nonce'));
    },
    // Twice the warm-up's pace (the window may run faster), for as long as proofs stay fresh.
    beforeWindow: ({ requestsPerSecond, durationSeconds }) =>
      signer.signAhead(
        Math.ceil(2 * requestsPerSecond * Math.min(durationSeconds, SIGNED_AHEAD_LIFETIME_MS / 1000)),
      ),
    describeWindow: () => {
      const { total, signedAhead } = signer.usage();
      return `DPoP proofs: ${signedAhead} of ${total} signed before the window, ${total - signedAhead} during it`;
    },
  };
}

/** What the suite is measured on, the token endpoint first (it is the one compared). */
export function suiteScenarios(
  baseUrl: string,
  { client, user }: { client: MachineClient; user: UserToken | undefined },
  selected: readonly ScenarioName[] = SCENARIO_NAMES,
): Scenario[] {
  const all: Scenario[] = [
    clientCredentials(`${baseUrl}/oauth/token`, client.authorization),
    clientCredentialsDpop(`${baseUrl}/oauth/token`, client.authorization),
    {
      name: 'introspection',
      target: {
        url: `${baseUrl}/oauth/introspect`,
        method: 'POST',
        headers: { authorization: client.authorization, 'content-type': FORM },
        body: `token=${encodeURIComponent(client.accessToken)}&token_type_hint=access_token`,
      },
      notReadyReason: (status) =>
        status === 404 ? 'POST /oauth/introspect answers 404 (not in this build yet)' : undefined,
    },
    // A web app's call with a user's token (OIDC Core 5.3); under the per-address budget of
    // docs/security.md #11, as every address is.
    {
      name: 'userinfo',
      target: {
        url: `${baseUrl}/oauth/userinfo`,
        method: 'GET',
        headers: { authorization: `Bearer ${user?.accessToken ?? ''}` },
      },
      notReadyReason: (status) => (user ? undefined : `no user token (answers ${status})`),
    },
    { name: 'jwks', target: { url: `${baseUrl}/.well-known/jwks.json`, method: 'GET' } },
    { name: 'discovery', target: { url: `${baseUrl}/.well-known/openid-configuration`, method: 'GET' } },
    // The token load again, while the oauth replicas restart one at a time (replica-restart.ts).
    { ...clientCredentials(`${baseUrl}/oauth/token`, client.authorization), name: 'replica_restart' },
  ];
  return all.filter((scenario) => selected.includes(scenario.name as ScenarioName));
}

/** One request before the load: a scenario whose endpoint does not answer 200 is skipped. */
export async function probe(scenario: Scenario): Promise<string | undefined> {
  await scenario.prepare?.();
  const { url, method, headers, body, perRequest } = scenario.target;
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...perRequest?.headers() },
    ...(body === undefined ? {} : { body }),
  });
  await response.arrayBuffer();
  if (response.status === 200) return undefined;
  return (
    scenario.notReadyReason?.(response.status) ??
    `${method} ${new URL(url).pathname} answers ${response.status}`
  );
}
