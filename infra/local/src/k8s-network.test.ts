import { beforeAll, describe, expect, it } from 'vitest';
import { APPS, CALL_GRAPH } from './test/call-graph.js';
import {
  KUSTOMIZATIONS,
  Manifests,
  renderAll,
  type K8sObject,
  type KustomizationName,
} from './test/kustomize.js';
import { allows, connects, type Peer, type Port } from './test/network-policy.js';
import { containerEnvironment } from './test/workload-env.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are checked field by field */
let rendered: Record<KustomizationName, Manifests>;
beforeAll(() => {
  const objects = renderAll();
  rendered = {
    base: new Manifests(objects.base),
    'overlays/example': new Manifests(objects['overlays/example']),
  };
});

const NAMESPACE = 'authz';
const INTERNET: Peer = { ip: '93.184.216.34' };
const MONITORING: Peer = { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
const KUBE_DNS: Peer = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
/** The backends the example overlay narrows egress to, and an address outside its subnets. */
const POSTGRES: Peer = { ip: '10.20.0.10' };
const REDIS: Peer = { ip: '10.20.1.10' };
const ELSEWHERE: Peer = { ip: '10.99.0.10' };
const SMTP_RELAY: Peer = { ip: '198.51.100.25' };

/** Every pod the manifests run: the apps and the migration Job. */
function pods(
  manifests: Manifests,
): { name: string; workload: K8sObject; pod: { namespace: string; labels: any } }[] {
  return [...manifests.of('Deployment'), ...manifests.of('Job')].map((workload) => ({
    name: workload.metadata.name,
    workload,
    pod: { namespace: NAMESPACE, labels: workload.spec.template.metadata.labels },
  }));
}

function containerPort(manifests: Manifests, app: string, name: string): Port | undefined {
  const port = manifests
    .container(manifests.deployment(app))
    .ports?.find((entry: any) => entry.name === name);
  return port && { number: port.containerPort, name };
}

describe.each(Object.keys(KUSTOMIZATIONS) as KustomizationName[])('infra/k8s/%s NetworkPolicies', (name) => {
  const manifests = () => rendered[name];
  const policies = () => manifests().of('NetworkPolicy');
  const podOf = (app: string) => pods(manifests()).find((entry) => entry.name === app)!.pod;
  const secretsOf = (app: string) => {
    const { workload } = pods(manifests()).find((entry) => entry.name === app)!;
    return containerEnvironment(manifests(), manifests().container(workload)).fromSecret;
  };

  it('deny everything not allowed, in both directions', () => {
    for (const direction of ['Ingress', 'Egress'])
      expect(
        policies().some(
          (policy) =>
            Object.keys(policy.spec.podSelector).length === 0 &&
            policy.spec.policyTypes.includes(direction) &&
            !(policy.spec[direction.toLowerCase()]?.length > 0),
        ),
        direction,
      ).toBe(true);
  });

  it('connect gRPC callers to callees exactly along the call graph (docs/decisions.md #6)', () => {
    const allowed: string[] = [];
    for (const caller of pods(manifests()))
      for (const callee of APPS) {
        const grpc = containerPort(manifests(), callee, 'grpc');
        if (grpc && connects(policies(), caller.pod, podOf(callee), grpc))
          allowed.push(`${caller.name} -> ${callee}`);
      }
    const expected = Object.entries(CALL_GRAPH).flatMap(([caller, callees]) =>
      callees.map((callee) => `${caller} -> ${callee}`),
    );
    expect(allowed.sort()).toEqual(expected.sort());
  });

  it('let anyone reach the gateway on its HTTP port, and nobody from outside reach anything else', () => {
    const http = containerPort(manifests(), 'gateway', 'http')!;
    expect(allows(policies(), 'Ingress', podOf('gateway'), INTERNET, http)).toBe(true);
    for (const app of APPS)
      for (const portName of ['grpc', 'metrics']) {
        const port = containerPort(manifests(), app, portName);
        if (port)
          expect(allows(policies(), 'Ingress', podOf(app), INTERNET, port), `${app} ${portName}`).toBe(false);
      }
    expect(allows(policies(), 'Ingress', podOf('gateway'), INTERNET, { number: 9400 })).toBe(false);
  });

  it('open metrics ports to the monitoring namespace only', () => {
    for (const app of APPS) {
      const metrics = containerPort(manifests(), app, 'metrics');
      if (!metrics) continue;
      expect(allows(policies(), 'Ingress', podOf(app), MONITORING, metrics), app).toBe(true);
      expect(connects(policies(), podOf('gateway'), podOf(app), metrics), app).toBe(false);
      const otherNamespace = { namespace: 'default', labels: MONITORING.labels };
      expect(allows(policies(), 'Ingress', podOf(app), otherNamespace as Peer, metrics), app).toBe(false);
    }
  });

  it('let every pod resolve names through the cluster DNS, and only there', () => {
    for (const { name: app, pod } of pods(manifests())) {
      for (const protocol of ['UDP', 'TCP'] as const)
        expect(allows(policies(), 'Egress', pod, KUBE_DNS, { number: 53, protocol }), app).toBe(true);
      expect(allows(policies(), 'Egress', pod, { ip: '8.8.8.8' }, { number: 53, protocol: 'UDP' }), app).toBe(
        false,
      );
    }
  });

  it('let exactly the pods that hold a backend secret reach that backend', () => {
    const backends: [string, Peer, Port[]][] = [
      ['DATABASE_URL', POSTGRES, [{ number: 5432 }]],
      ['REDIS_URL', REDIS, [{ number: 6379 }]],
      ['SMTP_URL', SMTP_RELAY, [{ number: 25 }, { number: 465 }, { number: 587 }]],
    ];
    for (const { name: app, pod } of pods(manifests()))
      for (const [secret, peer, ports] of backends)
        for (const port of ports)
          expect(allows(policies(), 'Egress', pod, peer, port), `${app} -> ${secret} :${port.number}`).toBe(
            secretsOf(app).includes(secret),
          );
  });

  it('let only clients, oauth and identity (upstream OpenID Providers) fetch over HTTPS, never from private addresses', () => {
    const https = { number: 443 };
    for (const { name: app, pod } of pods(manifests())) {
      const fetches = ['clients', 'oauth', 'identity'].includes(app);
      expect(allows(policies(), 'Egress', pod, INTERNET, https), app).toBe(fetches);
      for (const ip of [
        '10.0.0.5',
        '172.16.0.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '127.0.0.1',
      ])
        expect(allows(policies(), 'Egress', pod, { ip }, https), `${app} -> ${ip}`).toBe(false);
      expect(allows(policies(), 'Egress', pod, INTERNET, { number: 80 }), app).toBe(false);
    }
  });

  it('let traces reach a collector in the monitoring namespace', () => {
    for (const { name: app, pod } of pods(manifests()))
      expect(allows(policies(), 'Egress', pod, MONITORING, { number: 4318 }), app).toBe(true);
  });
});

describe('infra/k8s/overlays/example NetworkPolicies', () => {
  it('narrow the database and Redis to their subnets, which the base leaves open', () => {
    const oauth = { namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'oauth' } };
    const egress = (name: KustomizationName, peer: Peer, port: number) =>
      allows(rendered[name].of('NetworkPolicy'), 'Egress', oauth, peer, { number: port });
    expect([egress('base', ELSEWHERE, 5432), egress('base', ELSEWHERE, 6379)]).toEqual([true, true]);
    expect([
      egress('overlays/example', ELSEWHERE, 5432),
      egress('overlays/example', ELSEWHERE, 6379),
    ]).toEqual([false, false]);
    expect([egress('overlays/example', POSTGRES, 5432), egress('overlays/example', REDIS, 6379)]).toEqual([
      true,
      true,
    ]);
  });
});

describe('the NetworkPolicy evaluator', () => {
  const policy = (spec: any): K8sObject => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'p', namespace: NAMESPACE },
    spec,
  });
  const a = { namespace: NAMESPACE, labels: { app: 'a' } };
  const b = { namespace: NAMESPACE, labels: { app: 'b' } };

  it('leaves pods no policy selects open, and isolates the ones a policy selects', () => {
    const onlyA = [policy({ podSelector: { matchLabels: { app: 'a' } }, policyTypes: ['Ingress'] })];
    expect(allows(onlyA, 'Ingress', b, a, { number: 1 })).toBe(true);
    expect(allows(onlyA, 'Ingress', a, b, { number: 1 })).toBe(false);
  });

  it('matches named ports, ipBlock exceptions and matchExpressions', () => {
    const rules = [
      policy({
        podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a'] }] },
        policyTypes: ['Egress'],
        egress: [
          { to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 443 }] },
          { to: [{ podSelector: { matchLabels: { app: 'b' } } }], ports: [{ port: 'grpc' }] },
        ],
      }),
    ];
    expect(allows(rules, 'Egress', a, { ip: '10.2.3.4' }, { number: 443 })).toBe(true);
    expect(allows(rules, 'Egress', a, { ip: '10.1.3.4' }, { number: 443 })).toBe(false);
    expect(allows(rules, 'Egress', a, b, { number: 50051, name: 'grpc' })).toBe(true);
    expect(allows(rules, 'Egress', a, b, { number: 50051 })).toBe(false);
    expect(allows(rules, 'Egress', b, { ip: '10.1.3.4' }, { number: 443 })).toBe(true);
  });
});
