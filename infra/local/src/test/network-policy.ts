import type { K8sObject } from './kustomize.js';

/**
 * A small evaluator of NetworkPolicy semantics (kubernetes.io/docs/concepts/services-networking/
 * network-policies): a pod selected by no policy of a direction is open in that direction;
 * once selected, a connection is allowed when any rule of any selecting policy admits the
 * peer and the port. IPv4 ipBlocks only: the tests address IPv4 peers.
 */
type Labels = Record<string, string>;

interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: {
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    values?: string[];
  }[];
}

/** A pod (with its namespace's labels) or an address outside the cluster. */
export type Peer = { namespace: string; labels: Labels } | { ip: string };

/** A destination port: its number, its container port name if any, TCP unless said. */
export interface Port {
  number: number;
  name?: string;
  protocol?: 'TCP' | 'UDP';
}

interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyPort {
  port?: number | string;
  endPort?: number;
  protocol?: string;
}

interface Rule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}

export function selectorMatches(selector: LabelSelector, labels: Labels): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]!);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]!);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabels && byExpressions;
}

function ipv4(address: string): number | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255))
    return undefined;
  return parts.reduce((value, part) => value * 256 + part, 0);
}

function inCidr(address: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const ip = ipv4(address);
  const base = ipv4(network!);
  if (ip === undefined || base === undefined) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ip / size) === Math.floor(base / size);
}

function peerMatches(peer: PolicyPeer, other: Peer, policyNamespace: string): boolean {
  if ('ip' in other) {
    const block = peer.ipBlock;
    return (
      !!block && inCidr(other.ip, block.cidr) && !(block.except ?? []).some((cidr) => inCidr(other.ip, cidr))
    );
  }
  if (peer.ipBlock) return false; // pod traffic is matched by selectors, not by address
  const namespaceLabels = { 'kubernetes.io/metadata.name': other.namespace };
  const namespaceOk = peer.namespaceSelector
    ? selectorMatches(peer.namespaceSelector, namespaceLabels)
    : other.namespace === policyNamespace;
  return namespaceOk && selectorMatches(peer.podSelector ?? {}, other.labels);
}

function portMatches(ports: PolicyPort[] | undefined, port: Port): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((rule) => {
    if ((rule.protocol ?? 'TCP') !== (port.protocol ?? 'TCP')) return false;
    if (rule.port === undefined) return true;
    if (typeof rule.port === 'string') return rule.port === port.name;
    return rule.endPort ? port.number >= rule.port && port.number <= rule.endPort : rule.port === port.number;
  });
}

function policyTypes(policy: K8sObject): string[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

/**
 * May `subject` (a pod in the policies' namespace) accept a connection from `other` on
 * `port` (Ingress), or open one to `other` on `port` (Egress)?
 */
export function allows(
  policies: K8sObject[],
  direction: 'Ingress' | 'Egress',
  subject: { namespace: string; labels: Labels },
  other: Peer,
  port: Port,
): boolean {
  const selecting = policies.filter(
    (policy) =>
      (policy.metadata.namespace ?? subject.namespace) === subject.namespace &&
      policyTypes(policy).includes(direction) &&
      selectorMatches(policy.spec.podSelector, subject.labels),
  );
  if (selecting.length === 0) return true;
  return selecting.some((policy) => {
    const rules: Rule[] = (direction === 'Ingress' ? policy.spec.ingress : policy.spec.egress) ?? [];
    const namespace = policy.metadata.namespace ?? subject.namespace;
    return rules.some((rule) => {
      const peers = direction === 'Ingress' ? rule.from : rule.to;
      const peerOk =
        !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, other, namespace));
      return peerOk && portMatches(rule.ports, port);
    });
  });
}

/**
 * A pod-to-pod connection is made only when the source may send it (Egress) and the target
 * may accept it (Ingress).
 */
export function connects(
  policies: K8sObject[],
  from: { namespace: string; labels: Labels },
  to: { namespace: string; labels: Labels },
  port: Port,
): boolean {
  return allows(policies, 'Egress', from, to, port) && allows(policies, 'Ingress', to, from, port);
}
