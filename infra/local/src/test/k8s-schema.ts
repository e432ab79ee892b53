import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import type { K8sObject } from './kustomize.js';

interface Model {
  validate(): void;
}
type ModelClass = new (data: never) => Model;

/** The kinds infra/k8s uses, by `apiVersion/kind`; a new kind must be added here to be checked. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

interface SchemaError {
  instancePath: string;
  message?: string;
}

function schemaErrors(model: ModelClass, object: unknown): SchemaError[] {
  try {
    new model(object as never).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: SchemaError[] }).errors;
    if (!errors) throw error;
    return errors;
  }
}

/**
 * The Kubernetes schemas accept fields they do not declare, as the API server does without
 * strict validation; `kubectl apply --validate=strict` would reject them. A field is declared
 * when giving it a value no schema type admits (a symbol) makes the schema complain at its path.
 */
function undeclaredFields(model: ModelClass, object: K8sObject): string[] {
  const found: string[] = [];
  const probe = Symbol('undeclared-field-probe');
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${path}/${index}`));
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (path === '' && (key === 'apiVersion' || key === 'kind')) continue;
      const pointer = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`; // RFC 6901
      const value = record[key];
      record[key] = probe;
      // Errors elsewhere (an invalid object) do not matter: only one at this path does.
      const complained = schemaErrors(model, object).some((error) => error.instancePath === pointer);
      record[key] = value;
      if (!complained) found.push(pointer);
      else visit(value, pointer);
    }
  };
  visit(object, '');
  return found;
}

/**
 * kustomize wraps long base64 values over several lines; the API server's decoder (Go's
 * encoding/base64) skips line breaks, the schema's `byte` format does not.
 */
function unwrapBase64(object: K8sObject): K8sObject {
  const unwrap = (data?: Record<string, string>) =>
    data &&
    Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value.replace(/[\r\n]/g, '')]));
  if (object.kind === 'Secret' && object.data) return { ...object, data: unwrap(object.data) };
  if (object.kind === 'ConfigMap' && object.binaryData)
    return { ...object, binaryData: unwrap(object.binaryData) };
  return object;
}

/** Every problem of one object against its Kubernetes 1.27 schema; empty when it is valid. */
export function schemaProblems(rendered: K8sObject): string[] {
  const object = unwrapBase64(rendered);
  const model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!model) return [`no schema registered for ${object.apiVersion} ${object.kind}`];
  return [
    ...schemaErrors(model, object).map((error) => `${error.instancePath} ${error.message ?? 'is invalid'}`),
    ...undeclaredFields(model, structuredClone(object)).map((pointer) => `${pointer} is not a field`),
  ];
}
