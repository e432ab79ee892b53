import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { walkUpTo } from '../paths.js';
import { PACKAGE_DIR } from './launcher.js';

/** One rendered Kubernetes object; tests read it field by field. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every kind has its own shape
  [field: string]: any;
}

export const ROOT = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;
export const K8S_DIR = join(ROOT, 'infra', 'k8s');

/** The kustomize features the manifests use (labels, generator merge/replace) need v5. */
const MINIMUM_KUSTOMIZE_MAJOR = 5;
const INSTALL_HINT =
  'install kubectl from the Kubernetes apt repository (https://pkgs.k8s.io, package `kubectl`); ' +
  "Debian's own `kubernetes-client` package is 1.20 with kustomize v2, too old";

/**
 * Not a skip: without kubectl these checks would mean nothing, so CI must install it. Returns
 * why it is unusable, or undefined when it is fine.
 */
export function kubectlProblem(): string | undefined {
  const result = spawnSync('kubectl', ['version', '--client', '--output=json'], { encoding: 'utf8' });
  if (result.error || result.status !== 0)
    return `kubectl is required to render infra/k8s (${result.error?.message ?? result.stderr.trim()}): ${INSTALL_HINT}`;
  const { kustomizeVersion } = JSON.parse(result.stdout) as { kustomizeVersion?: string };
  const major = Number(/^v?(\d+)\./.exec(kustomizeVersion ?? '')?.[1]);
  if (!(major >= MINIMUM_KUSTOMIZE_MAJOR))
    return `kubectl's kustomize ${kustomizeVersion ?? '(none)'} is older than v${MINIMUM_KUSTOMIZE_MAJOR}: ${INSTALL_HINT}`;
  return undefined;
}

/** `kubectl kustomize <dir>`, parsed: throws with kustomize's own message when it fails. */
export function renderKustomization(dir: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${result.stderr}`);
  // kustomize warns about deprecated fields on stderr: a warning today is an error tomorrow.
  if (result.stderr.trim() !== '') throw new Error(`kubectl kustomize ${dir} warned:\n${result.stderr}`);
  return parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length > 0) throw new Error(`${dir}: ${document.errors[0]!.message}`);
    return document.toJS() as K8sObject;
  });
}

/** The two kustomizations the repository ships, rendered once per test file. */
export const KUSTOMIZATIONS = {
  base: join(K8S_DIR, 'base'),
  'overlays/example': join(K8S_DIR, 'overlays', 'example'),
} as const;

export type KustomizationName = keyof typeof KUSTOMIZATIONS;

export function renderAll(): Record<KustomizationName, K8sObject[]> {
  const problem = kubectlProblem();
  if (problem) throw new Error(problem);
  return {
    base: renderKustomization(KUSTOMIZATIONS.base),
    'overlays/example': renderKustomization(KUSTOMIZATIONS['overlays/example']),
  };
}

/** Lookups over one rendered set of objects. */
export class Manifests {
  constructor(readonly objects: K8sObject[]) {}

  of(kind: string): K8sObject[] {
    return this.objects.filter((object) => object.kind === kind);
  }

  /** The object of `kind` named `name`; generated names carry a hash suffix, matched too. */
  named(kind: string, name: string): K8sObject {
    const found = this.of(kind).filter(
      (object) =>
        object.metadata.name === name ||
        (object.metadata.name.startsWith(`${name}-`) &&
          /^[a-z0-9]{10}$/.test(object.metadata.name.slice(name.length + 1))),
    );
    if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
    return found[0]!;
  }

  deployment(app: string): K8sObject {
    return this.named('Deployment', app);
  }

  /** The single container of a workload. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a PodSpec container
  container(workload: K8sObject): any {
    return workload.spec.template.spec.containers[0];
  }
}
