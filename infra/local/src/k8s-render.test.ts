import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from './test/k8s-schema.js';
import { KUSTOMIZATIONS, renderAll, type K8sObject, type KustomizationName } from './test/kustomize.js';

/** What `kubectl kustomize` makes of infra/k8s, checked against the Kubernetes schemas. */
let rendered: Record<KustomizationName, K8sObject[]>;
beforeAll(() => {
  rendered = renderAll();
});

const CLUSTER_SCOPED = new Set(['Namespace']);

describe.each(Object.keys(KUSTOMIZATIONS) as KustomizationName[])('infra/k8s/%s', (name) => {
  it('renders every object valid against its Kubernetes schema, with no undeclared field', () => {
    const problems = rendered[name].flatMap((object) =>
      schemaProblems(object).map((problem) => `${object.kind} ${object.metadata.name}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('renders each kind it needs, and nothing twice', () => {
    const kinds = rendered[name].map((object) => object.kind);
    expect([...new Set(kinds)].sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Job',
      'Namespace',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ]);
    const ids = rendered[name].map((object) => `${object.kind}/${object.metadata.name}`);
    expect(ids.length).toBe(new Set(ids).size);
  });

  it('puts everything in the one namespace it renders, which enforces Pod Security "restricted"', () => {
    const [namespace, ...others] = rendered[name].filter((object) => object.kind === 'Namespace');
    expect(others).toEqual([]);
    expect(namespace!.metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    for (const object of rendered[name].filter((object) => !CLUSTER_SCOPED.has(object.kind)))
      expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(
        namespace!.metadata.name,
      );
  });

  it('labels every object as part of the suite', () => {
    for (const object of rendered[name])
      expect(
        object.metadata.labels?.['app.kubernetes.io/part-of'],
        `${object.kind} ${object.metadata.name}`,
      ).toBe('authz');
  });
});

describe('infra/k8s/base/kustomization.yaml', () => {
  it('lists every file of the base, and only existing ones', () => {
    const dir = KUSTOMIZATIONS.base;
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
      configMapGenerator: { envs: string[] }[];
      secretGenerator: { envs: string[] }[];
    };
    const listed = [
      ...kustomization.resources,
      ...kustomization.configMapGenerator.flatMap((generator) => generator.envs),
      ...kustomization.secretGenerator.flatMap((generator) => generator.envs),
    ];
    const files = readdirSync(dir).filter((file) => file !== 'kustomization.yaml');
    expect(listed.sort()).toEqual(files.sort());
  });
});

describe('the schema check itself', () => {
  const deployment = (): K8sObject =>
    structuredClone(rendered.base.find((object) => object.kind === 'Deployment')!);

  it('accepts a rendered Deployment as it is', () => {
    expect(schemaProblems(deployment())).toEqual([]);
  });

  it('rejects a value of the wrong type', () => {
    const broken = deployment();
    broken.spec.replicas = 'two';
    expect(schemaProblems(broken)).toEqual(['/spec/replicas must be integer']);
  });

  it('rejects a misspelt field, which the schemas alone would let through', () => {
    const broken = deployment();
    const container = broken.spec.template.spec.containers[0];
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    expect(schemaProblems(broken)).toEqual(['/spec/template/spec/containers/0/readinesProbe is not a field']);
  });

  it('rejects a kind it has no schema for', () => {
    expect(schemaProblems({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toEqual([
      'no schema registered for v1 Pod',
    ]);
  });
});
