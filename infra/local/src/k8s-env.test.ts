import { SERVICES } from '@authz/shared/topology';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV_LOADERS, rejectedVariables, TEST_SECRETS } from './test/app-env.js';
import { APPS, CALL_GRAPH, SECRET_VARIABLES } from './test/call-graph.js';
import { KUSTOMIZATIONS, Manifests, renderAll, type KustomizationName } from './test/kustomize.js';
import { containerEnvironment, secretData } from './test/workload-env.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are checked field by field */
let rendered: Record<KustomizationName, Manifests>;
beforeAll(() => {
  const objects = renderAll();
  rendered = {
    base: new Manifests(objects.base),
    'overlays/example': new Manifests(objects['overlays/example']),
  };
});

/** docs/contract.md "Environment", one name per variable. */
const CONTRACT_VARIABLES = [
  'PORT',
  'HOST',
  'JWT_ISSUER',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'GRPC_PORT_BASE',
  'WALLET_FEDERATION_ENABLED',
  'WALLET_VERIFIER_KEY_FILE',
  'WALLET_VERIFIER_CERT_CHAIN_FILE',
  'CIMD_ENABLED',
  'CIMD_ALLOW_INSECURE_LOOPBACK',
  'ENTERPRISE_ASSERTION_ENABLED',
  'ENTERPRISE_TRUSTED_ISSUERS_FILE',
  'ENTERPRISE_ID_JAG_AUDIENCES',
  'REQUIRE_PAR',
  'DEFAULT_REALM_ALLOWED_SCOPES',
  'DEFAULT_DYNAMIC_REGISTRATION_SCOPES',
  'DEFAULT_RATE_LIMIT',
  'DEFAULT_RATE_WINDOW',
  'CLIENT_RATE_LIMIT',
  'CLIENT_RATE_WINDOW',
  'REGISTER_CLIENT_RATE_LIMIT',
  'REGISTER_CLIENT_RATE_WINDOW',
  'LOGIN_RATE_LIMIT',
  'LOGIN_RATE_WINDOW',
  'REGISTER_RATE_LIMIT',
  'REGISTER_RATE_WINDOW',
  'RESEND_VERIFICATION_MIN_INTERVAL',
  'RESEND_VERIFICATION_MAX_PER_WINDOW',
  'RESEND_VERIFICATION_WINDOW',
  'ACCESS_TOKEN_TTL',
  'REFRESH_TOKEN_TTL',
  'AUTHORIZATION_CODE_TTL',
  'SESSION_TTL',
  'VERIFICATION_TOKEN_TTL',
  'KEY_ENCRYPTION_KEY',
  'SECRET_HASH_KEY',
  'ARGON2_MEMORY_KIB',
  'ARGON2_ITERATIONS',
  'ARGON2_PARALLELISM',
  'ARGON2_CONCURRENCY',
  'ARGON2_QUEUE',
  'TRUST_PROXY',
  'IDENTITY_GRPC_URL',
  'OAUTH_GRPC_URL',
  'CLIENTS_GRPC_URL',
  'CONSENT_UI_GRPC_URL',
  'WALLET_BRIDGE_GRPC_URL',
  'WALLET_TRUSTED_ISSUERS_FILE',
  'LOG_LEVEL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
];
/** Test-only: it admits loopback http URLs, so a cluster must never set it. */
const NEVER_DEPLOYED = ['CIMD_ALLOW_INSECURE_LOOPBACK'];
/** Settings a cluster sets differently from the services' own defaults, on purpose. */
const CLUSTER_SPECIFIC = new Set([
  'HOST',
  'GRPC_HOST',
  'JWT_ISSUER',
  'MAIL_FROM',
  ...SERVICES.map((service) => `${service.envPrefix}_GRPC_URL`),
]);
const PLACEHOLDER = /^REPLACE-ME-/;

describe.each(Object.keys(KUSTOMIZATIONS) as KustomizationName[])(
  'infra/k8s/%s settings and secrets',
  (name) => {
    const manifests = () => rendered[name];
    const config = () => manifests().named('ConfigMap', 'authz-config').data as Record<string, string>;
    const secret = () => secretData(manifests().named('Secret', 'authz-secrets'));
    const environment = (app: string, secrets?: Record<string, string>) =>
      containerEnvironment(manifests(), manifests().container(manifests().deployment(app)), secrets);

    it('carries every docs/contract.md variable, secrets in the Secret only', () => {
      const deployed = CONTRACT_VARIABLES.filter((variable) => !NEVER_DEPLOYED.includes(variable));
      const inConfig = deployed.filter((variable) => variable in config());
      const inSecret = deployed.filter((variable) => variable in secret());
      expect(inSecret.sort()).toEqual([...SECRET_VARIABLES].sort());
      expect(inConfig.sort()).toEqual(
        deployed.filter((variable) => !SECRET_VARIABLES.includes(variable)).sort(),
      );
      for (const variable of NEVER_DEPLOYED)
        expect({ ...config(), ...secret() }).not.toHaveProperty(variable);
    });

    it('keeps credentials out of the ConfigMap', () => {
      for (const [key, value] of Object.entries(config())) {
        expect(key).not.toMatch(/SECRET|PASSWORD|TOKEN_KEY|ENCRYPTION_KEY|HASH_KEY|_URL$(?<!_GRPC_URL)/);
        expect(value, key).not.toMatch(/:\/\/[^/@\s]*:[^/@\s]*@/); // scheme://user:password@
        expect(value, key).not.toMatch(/^[0-9a-f]{64}$/i);
      }
    });

    it('ships placeholders, never secrets', () => {
      for (const [key, value] of Object.entries(secret())) expect(value, key).toMatch(PLACEHOLDER);
    });

    it('gives each app an environment its own start-up validation accepts', () => {
      for (const app of APPS)
        expect(rejectedVariables(app, environment(app, TEST_SECRETS).env), app).toEqual([]);
    });

    it('fails each app loudly on the placeholders, naming exactly the secrets it was given', () => {
      for (const app of APPS) {
        const { env, fromSecret } = environment(app);
        expect(fromSecret.length, app).toBeGreaterThan(0);
        expect(rejectedVariables(app, env), app).toEqual(fromSecret);
      }
    });

    it('binds every service where its container ports and Services say, on every interface', () => {
      for (const app of APPS) {
        const loaded = ENV_LOADERS[app]!(environment(app, TEST_SECRETS).env);
        const ports = Object.fromEntries(
          manifests()
            .container(manifests().deployment(app))
            .ports.map((port: any) => [port.name, port.containerPort]),
        );
        if (app === 'gateway') {
          expect([loaded.host, loaded.port]).toEqual(['0.0.0.0', ports.http]);
          continue;
        }
        expect(loaded.runtime, app).toMatchObject({
          grpcHost: '0.0.0.0',
          metricsHost: '0.0.0.0',
          metricsPort: ports.metrics,
        });
        if (ports.grpc) expect(loaded.runtime!.grpcPort, app).toBe(ports.grpc);
      }
    });

    it('dials each service by the fully qualified name of its headless Service (docs/decisions.md #26)', () => {
      const namespace = manifests().of('Namespace')[0]!.metadata.name;
      for (const app of APPS) {
        const loaded = ENV_LOADERS[app]!(environment(app, TEST_SECRETS).env);
        for (const [callee, url] of Object.entries(loaded.services ?? {})) {
          const service = manifests().named('Service', callee);
          const port = service.spec.ports.find((entry: any) => entry.name === 'grpc').port;
          expect(service.spec.clusterIP, callee).toBe('None');
          expect(url, `${app} -> ${callee}`).toBe(`dns:///${callee}.${namespace}.svc.cluster.local:${port}`);
        }
      }
    });
  },
);

describe('the apps themselves', () => {
  const manifests = () => rendered.base;
  const environment = (app: string) =>
    containerEnvironment(manifests(), manifests().container(manifests().deployment(app)), TEST_SECRETS).env;

  it('call exactly the services of the call graph the NetworkPolicies allow', () => {
    for (const app of APPS) {
      const callees = Object.keys(ENV_LOADERS[app]!(environment(app)).services ?? {});
      expect(callees.sort(), app).toEqual([...CALL_GRAPH[app]!].sort());
    }
  });

  it("default to the base ConfigMap's values, except where a cluster differs on purpose", () => {
    const config = manifests().named('ConfigMap', 'authz-config').data as Record<string, string>;
    const differing: string[] = [];
    for (const app of APPS) {
      const env = environment(app);
      const parsed = JSON.stringify(ENV_LOADERS[app]!(env));
      for (const key of Object.keys(config).filter((key) => !CLUSTER_SPECIFIC.has(key))) {
        const { [key]: _dropped, ...withoutKey } = env;
        if (JSON.stringify(ENV_LOADERS[app]!(withoutKey)) !== parsed)
          differing.push(`${app}: ${key}=${config[key]}`);
      }
    }
    expect(differing).toEqual([]);
  });
});
