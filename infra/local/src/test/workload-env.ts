import type { K8sObject, Manifests } from './kustomize.js';

/** The environment a container gets, as the kubelet would assemble it, and where each came from. */
export interface ContainerEnvironment {
  env: Record<string, string>;
  /** Variables taken from a Secret (by secretKeyRef or a secretRef). */
  fromSecret: string[];
}

/** A Secret's values, decoded. */
export function secretData(secret: K8sObject): Record<string, string> {
  const decoded = Object.fromEntries(
    Object.entries<string>(secret.data ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString(),
    ]),
  );
  return { ...decoded, ...(secret.stringData ?? {}) };
}

function byExactName(manifests: Manifests, kind: string, name: string): K8sObject {
  const found = manifests.of(kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`${kind} ${name} is referenced but not rendered`);
  return found;
}

/**
 * envFrom first, then env (which wins), as Kubernetes does. `secrets` overrides the Secret's
 * values by key, so tests can stand real-looking values in for the placeholders.
 */
export function containerEnvironment(
  manifests: Manifests,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a PodSpec container
  container: any,
  secrets: Record<string, string> = {},
): ContainerEnvironment {
  const env: Record<string, string> = {};
  const fromSecret = new Set<string>();
  const secretValue = (name: string, key: string) =>
    secrets[key] ?? secretData(byExactName(manifests, 'Secret', name))[key];
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef)
      Object.assign(env, byExactName(manifests, 'ConfigMap', source.configMapRef.name).data);
    if (source.secretRef) {
      for (const key of Object.keys(secretData(byExactName(manifests, 'Secret', source.secretRef.name)))) {
        env[key] = secretValue(source.secretRef.name, key)!;
        fromSecret.add(key);
      }
    }
  }
  for (const variable of container.env ?? []) {
    const { configMapKeyRef, secretKeyRef } = variable.valueFrom ?? {};
    fromSecret.delete(variable.name);
    if (secretKeyRef) {
      const value = secretValue(secretKeyRef.name, secretKeyRef.key);
      if (value === undefined)
        throw new Error(`${variable.name}: Secret ${secretKeyRef.name} has no ${secretKeyRef.key}`);
      env[variable.name] = value;
      fromSecret.add(variable.name);
    } else if (configMapKeyRef) {
      const value = byExactName(manifests, 'ConfigMap', configMapKeyRef.name).data?.[configMapKeyRef.key];
      if (value === undefined)
        throw new Error(`${variable.name}: ConfigMap ${configMapKeyRef.name} has no ${configMapKeyRef.key}`);
      env[variable.name] = value;
    } else {
      env[variable.name] = variable.value ?? '';
    }
  }
  return { env, fromSecret: [...fromSecret].sort() };
}
