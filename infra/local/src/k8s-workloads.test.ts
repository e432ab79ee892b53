import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  DATA_OWNING_SERVICES,
  defaultGrpcPort,
  defaultMetricsPort,
  type ServiceName,
} from '@authz/shared/topology';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPC_SERVICES } from './service-env.js';
import { APPS } from './test/call-graph.js';
import {
  KUSTOMIZATIONS,
  Manifests,
  renderAll,
  ROOT,
  type K8sObject,
  type KustomizationName,
} from './test/kustomize.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are checked field by field */
let rendered: Record<KustomizationName, Manifests>;
beforeAll(() => {
  const objects = renderAll();
  rendered = {
    base: new Manifests(objects.base),
    'overlays/example': new Manifests(objects['overlays/example']),
  };
});

const appExists = (app: string) => existsSync(join(ROOT, 'apps', app, 'package.json'));
const workloads = (manifests: Manifests) => [...manifests.of('Deployment'), ...manifests.of('Job')];
const portNamed = (container: any, name: string) => container.ports?.find((port: any) => port.name === name);

describe.each(Object.keys(KUSTOMIZATIONS) as KustomizationName[])('infra/k8s/%s', (name) => {
  const manifests = () => rendered[name];

  it('runs each app once, from its own built entry', () => {
    const deployments = manifests().of('Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([...APPS].sort());
    for (const deployment of deployments) {
      const app = deployment.metadata.name;
      expect(deployment.spec.template.spec.containers.length, app).toBe(1);
      expect(manifests().container(deployment).command, app).toEqual(['node', `apps/${app}/dist/main.js`]);
      expect(appExists(app), `apps/${app}/package.json`).toBe(true);
      expect(deployment.spec.selector.matchLabels, app).toEqual({ 'app.kubernetes.io/name': app });
      expect(deployment.spec.template.metadata.labels['app.kubernetes.io/name'], app).toBe(app);
    }
  });

  it('serves the gRPC services headless on their topology ports, and the gateway behind a ClusterIP', () => {
    for (const app of GRPC_SERVICES) {
      const service = manifests().named('Service', app);
      expect(service.spec.clusterIP, app).toBe('None');
      expect(service.spec.selector, app).toEqual({ 'app.kubernetes.io/name': app });
      expect(
        service.spec.ports.find((port: any) => port.name === 'grpc'),
        app,
      ).toEqual({
        name: 'grpc',
        port: defaultGrpcPort(app),
        targetPort: 'grpc',
        appProtocol: 'grpc',
      });
      expect(portNamed(manifests().container(manifests().deployment(app)), 'grpc').containerPort, app).toBe(
        defaultGrpcPort(app),
      );
    }
    const gateway = manifests().named('Service', 'gateway');
    expect(gateway.spec.clusterIP).toBeUndefined();
    expect(gateway.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(gateway.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', appProtocol: 'http' }]);
    expect(portNamed(manifests().container(manifests().deployment('gateway')), 'http').containerPort).toBe(
      3000,
    );
  });

  it('exposes every service metrics port on its topology port, and gives every app a Service', () => {
    for (const app of APPS) {
      const service = manifests().named('Service', app);
      expect(service.spec.selector, app).toEqual({ 'app.kubernetes.io/name': app });
      if (app === 'gateway') continue;
      const port = defaultMetricsPort(app as ServiceName);
      expect(
        portNamed(manifests().container(manifests().deployment(app)), 'metrics').containerPort,
        app,
      ).toBe(port);
      expect(service.spec.ports.find((servicePort: any) => servicePort.name === 'metrics').port, app).toBe(
        port,
      );
    }
  });

  it('protects every Deployment with a PodDisruptionBudget that still lets a node drain', () => {
    for (const app of APPS) {
      const pdb = manifests().named('PodDisruptionBudget', app);
      expect(pdb.spec, app).toEqual({
        maxUnavailable: 1,
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
        selector: { matchLabels: { 'app.kubernetes.io/name': app } },
      });
    }
    expect(manifests().of('PodDisruptionBudget').length).toBe(APPS.length);
  });

  it('probes the gateway: ready on /health, alive on a route that needs neither Postgres nor Redis', () => {
    const gateway = manifests().container(manifests().deployment('gateway'));
    expect(gateway.readinessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(gateway.livenessProbe.httpGet).toEqual({ path: '/metrics', port: 'http' });
    expect(gateway.startupProbe).toBeDefined();
  });

  it('probes each service: ready when its gRPC port accepts, alive while it answers HTTP', () => {
    for (const app of APPS.filter((app) => app !== 'gateway')) {
      const container = manifests().container(manifests().deployment(app));
      const expectedReadiness = GRPC_SERVICES.includes(app as ServiceName)
        ? { tcpSocket: { port: 'grpc' } }
        : { httpGet: { path: '/metrics', port: 'metrics' } };
      expect(container.readinessProbe, app).toMatchObject(expectedReadiness);
      expect(container.livenessProbe.httpGet, app).toEqual({ path: '/metrics', port: 'metrics' });
      expect(container.startupProbe.httpGet, app).toEqual({ path: '/metrics', port: 'metrics' });
    }
  });

  it('gives liveness time: it starts after a startup probe, and fails only after several misses', () => {
    for (const deployment of manifests().of('Deployment')) {
      const container = manifests().container(deployment);
      const { periodSeconds, failureThreshold } = container.startupProbe;
      expect(periodSeconds * failureThreshold, deployment.metadata.name).toBeGreaterThanOrEqual(60);
      expect(container.livenessProbe.failureThreshold, deployment.metadata.name).toBeGreaterThanOrEqual(3);
    }
  });

  it('sets requests and a memory limit on every container', () => {
    for (const workload of workloads(manifests())) {
      const { requests, limits } = manifests().container(workload).resources;
      expect(Object.keys(requests).sort(), workload.metadata.name).toEqual(['cpu', 'memory']);
      expect(limits.memory, workload.metadata.name).toBeDefined();
    }
  });

  it('runs every pod as the restricted Pod Security profile requires, on a read-only filesystem', () => {
    for (const workload of workloads(manifests())) {
      const pod = workload.spec.template.spec;
      const app = workload.metadata.name;
      expect(pod.securityContext, app).toEqual({
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken, app).toBe(false);
      expect(pod.enableServiceLinks, app).toBe(false);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(container.securityContext, app).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
      expect(pod.hostNetwork ?? pod.hostPID ?? pod.hostIPC, app).toBeUndefined();
      for (const volume of pod.volumes ?? [])
        expect(Object.keys(volume).sort(), app).toEqual(['emptyDir', 'name']);
    }
  });

  it('scales oauth with its own HPA on CPU, and leaves its replica count to it', () => {
    const [hpa, ...others] = manifests().of('HorizontalPodAutoscaler');
    expect(others).toEqual([]);
    expect(hpa!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'oauth' });
    expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa!.spec.maxReplicas).toBeGreaterThan(hpa!.spec.minReplicas);
    expect(hpa!.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      },
    ]);
    expect(manifests().deployment('oauth').spec.replicas).toBeUndefined();
    expect(manifests().container(manifests().deployment('oauth')).resources.requests.cpu).toBeDefined();
  });

  it('migrates every data service, in order, once, with the database secret only', () => {
    const [job, ...others] = manifests().of('Job');
    expect(others).toEqual([]);
    const container = manifests().container(job!);
    const entries = [...container.command.join(' ').matchAll(/node apps\/([\w-]+)\/dist\/migrate\.js/g)].map(
      (match) => match[1],
    );
    expect(entries).toEqual(DATA_OWNING_SERVICES.map((service) => service.name));
    for (const app of entries)
      expect(existsSync(join(ROOT, 'apps', app!, 'src', 'migrate.ts')), app).toBe(true);
    expect(job!.spec.template.spec.restartPolicy).toBe('Never');
    expect(job!.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    const secrets = container.env.filter((variable: any) => variable.valueFrom?.secretKeyRef);
    expect(secrets.map((variable: any) => variable.name)).toEqual(['DATABASE_URL']);
  });

  it('runs one image everywhere', () => {
    const images = new Set(workloads(manifests()).map((workload) => manifests().container(workload).image));
    expect(images.size).toBe(1);
  });
});

describe('infra/k8s/overlays/example', () => {
  const overlay = () => rendered['overlays/example'];
  const base = () => rendered.base;

  it('pins the image to a registry and a version, never latest', () => {
    const image: string = overlay().container(overlay().deployment('oauth')).image;
    expect(image).toMatch(/^[\w.-]+(:\d+)?\/[\w./-]+(:[\w.-]+|@sha256:[0-9a-f]{64})$/);
    expect(image).not.toMatch(/:latest$/);
    expect(base().container(base().deployment('oauth')).image).toBe('authz-server');
  });

  it('changes what a deployment tunes and keeps the rest of the base', () => {
    const hpa = (manifests: Manifests): any => manifests.named('HorizontalPodAutoscaler', 'oauth').spec;
    expect([hpa(overlay()).minReplicas, hpa(overlay()).maxReplicas]).toEqual([3, 20]);
    expect(overlay().deployment('gateway').spec.replicas).toBe(3);
    expect(overlay().container(overlay().deployment('oauth')).resources).toEqual({
      requests: { cpu: '500m', memory: '256Mi' },
      limits: { memory: '512Mi' },
    });
    const kinds = (manifests: Manifests) =>
      manifests.objects.map(
        (object: K8sObject) => `${object.kind}/${object.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`,
      );
    expect(kinds(overlay()).sort()).toEqual(kinds(base()).sort());
  });

  it('rolls the Deployments when a setting or a secret changes: generated names differ from the base', () => {
    for (const kind of ['ConfigMap', 'Secret']) {
      const name = (manifests: Manifests) => manifests.of(kind)[0]!.metadata.name;
      expect(name(overlay()), kind).not.toBe(name(base()));
      const referenced = JSON.stringify(overlay().deployment('oauth'));
      expect(referenced, kind).toContain(`"${name(overlay())}"`);
    }
  });
});
