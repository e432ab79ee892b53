import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_OWNING_SERVICES, defaultGrpcPort, defaultMetricsPort, SERVICES } from '@authz/shared/topology';
import { parseAllDocuments, parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { walkUpTo } from './paths.js';
import { GRPC_SERVICES } from './service-env.js';
import { PACKAGE_DIR } from './test/launcher.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are checked field by field */
const root = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;
const dir = join(root, 'infra', 'k8s');
const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml');
const manifests: any[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    return { ...document.toJS(), file };
  }),
);
const of = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const named = (kind: string, name: string) => of(kind).find((manifest) => manifest.metadata.name === name);
const apps = [...SERVICES.map((service) => service.name as string), 'gateway'];
const appExists = (app: string) => existsSync(join(root, 'apps', app, 'package.json'));

/** Who may call whom (ARCHITECTURE.md). */
const CALL_GRAPH: Record<string, string[]> = {
  gateway: ['identity', 'oauth', 'clients', 'consent-ui', 'wallet-bridge'],
  oauth: ['identity', 'clients'],
  'consent-ui': ['identity', 'oauth', 'wallet-bridge'],
  'wallet-bridge': ['identity'],
};

describe('infra/k8s', () => {
  it('lists every manifest in kustomization.yaml, and only existing ones', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
  });

  it('runs each app from its own built entry, once', () => {
    const deployments = of('Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([...apps].sort());
    for (const deployment of deployments) {
      const [container, ...others] = deployment.spec.template.spec.containers;
      expect(others, deployment.metadata.name).toEqual([]);
      const [, app] = /^node apps\/([\w-]+)\/dist\/main\.js$/.exec(container.command.join(' ')) ?? [];
      expect(app, deployment.metadata.name).toBe(deployment.metadata.name);
      expect(appExists(app!), `apps/${app}/package.json`).toBe(true);
    }
  });

  it('migrates every data service, in order, from existing apps', () => {
    const job = named('Job', 'migrate');
    const script = job.spec.template.spec.containers[0].command.join(' ');
    const apps = [...script.matchAll(/node apps\/([\w-]+)\/dist\/migrate\.js/g)].map((match) => match[1]);
    expect(apps).toEqual(DATA_OWNING_SERVICES.map((service) => service.name));
    for (const app of apps) expect(appExists(app!), app).toBe(true);
  });

  it('runs every pod non-root on a read-only filesystem, with probes and resources', () => {
    for (const workload of [...of('Deployment'), ...of('Job')]) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot, workload.metadata.name).toBe(true);
      for (const container of pod.containers) {
        expect(container.securityContext, workload.metadata.name).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources.requests.memory, workload.metadata.name).toBeDefined();
        expect(container.resources.limits.memory, workload.metadata.name).toBeDefined();
        if (workload.kind === 'Deployment') {
          expect(container.readinessProbe, workload.metadata.name).toBeDefined();
          expect(container.livenessProbe, workload.metadata.name).toBeDefined();
        }
      }
    }
    const gateway = named('Deployment', 'gateway').spec.template.spec.containers[0];
    expect(gateway.readinessProbe.httpGet.path).toBe('/health');
  });

  it('serves each gRPC service headless on its topology port, probed on that port', () => {
    for (const { name, envPrefix } of SERVICES) {
      const service = named('Service', name);
      expect(service.spec.clusterIP, name).toBe('None');
      const container = named('Deployment', name).spec.template.spec.containers[0];
      const ports = Object.fromEntries(container.ports.map((port: any) => [port.name, port.containerPort]));
      expect(ports.metrics, name).toBe(defaultMetricsPort(name));
      if (GRPC_SERVICES.includes(name)) {
        expect(ports.grpc, name).toBe(defaultGrpcPort(name));
        expect(container.readinessProbe.tcpSocket.port, name).toBe('grpc');
        expect(named('ConfigMap', 'authz-config').data[`${envPrefix}_GRPC_URL`]).toBe(
          `dns:///${name}:${defaultGrpcPort(name)}`,
        );
      }
    }
  });

  it('autoscales oauth and protects gateway and oauth from voluntary disruption', () => {
    expect(named('HorizontalPodAutoscaler', 'oauth').spec.scaleTargetRef).toMatchObject({
      kind: 'Deployment',
      name: 'oauth',
    });
    expect(named('Deployment', 'oauth').spec.replicas).toBeUndefined();
    for (const name of ['gateway', 'oauth']) {
      expect(
        of('PodDisruptionBudget').some(
          (pdb) => pdb.spec.selector.matchLabels['app.kubernetes.io/name'] === name,
        ),
        name,
      ).toBe(true);
    }
  });

  it('allows gRPC ingress exactly along the call graph, and metrics from monitoring', () => {
    const policies = of('NetworkPolicy');
    expect(policies.some((policy) => Object.keys(policy.spec.podSelector).length === 0)).toBe(true);
    const allowed = new Set<string>();
    for (const policy of policies) {
      const target = policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'];
      for (const rule of policy.spec.ingress ?? []) {
        if (!target || !rule.ports.some((port: any) => port.port === 'grpc')) continue;
        for (const peer of rule.from)
          allowed.add(`${peer.podSelector.matchLabels['app.kubernetes.io/name']} -> ${target}`);
      }
    }
    const expected = Object.entries(CALL_GRAPH).flatMap(([caller, callees]) =>
      callees.map((callee) => `${caller} -> ${callee}`),
    );
    expect([...allowed].sort()).toEqual(expected.sort());
    const metrics = policies.find((policy) => policy.metadata.name === 'metrics-from-monitoring');
    expect(metrics.spec.ingress[0]).toEqual({
      from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      ports: [{ port: 'metrics', protocol: 'TCP' }],
    });
  });

  it('ships placeholders, not secrets', () => {
    const secret = named('Secret', 'authz-secrets');
    expect(Object.keys(secret.stringData).sort()).toEqual([
      'DATABASE_URL',
      'KEY_ENCRYPTION_KEY',
      'REDIS_URL',
      'SECRET_HASH_KEY',
      'SMTP_URL',
    ]);
    for (const value of Object.values<string>(secret.stringData)) expect(value).toMatch(/REPLACE/);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!kubectl)('builds with kustomize', () => {
    const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
