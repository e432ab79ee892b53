import { keyedHash } from '@authz/shared/crypto';
import type { Redis } from 'ioredis';

/** docs/federation.md #6: what a flow remembers between start and callback. */
export interface UpstreamFlow {
  providerId: string;
  purpose: 'sign_in' | 'link';
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Sign-in: the pending authorization to resume. */
  pendingHandle?: string;
  /** Link: the signed-in user. */
  userId?: string;
}

/** Ten minutes to sign in at the upstream, as long as a pending authorization lives. */
export const UPSTREAM_FLOW_TTL_SECONDS = 600;

const flowKey = (secretHashKey: Buffer, binder: string) =>
  `federation-flow:${keyedHash(secretHashKey, `federation-binder:${binder}`)}`;

/**
 * Flows in Redis under the keyed hash of the browser's binder cookie (docs/federation.md #6):
 * only the browser that started a flow can finish it, a copy of Redis cannot, and one browser
 * has one flow at a time. Taking a flow deletes it (GETDEL), so a callback is used once.
 */
export class UpstreamFlowStore {
  constructor(
    private readonly redis: Redis,
    private readonly secretHashKey: Buffer,
  ) {}

  async save(binder: string, flow: UpstreamFlow): Promise<void> {
    await this.redis.set(
      flowKey(this.secretHashKey, binder),
      JSON.stringify(flow),
      'EX',
      UPSTREAM_FLOW_TTL_SECONDS,
    );
  }

  async take(binder: string): Promise<UpstreamFlow | undefined> {
    const stored = await this.redis.getdel(flowKey(this.secretHashKey, binder));
    return stored === null ? undefined : (JSON.parse(stored) as UpstreamFlow);
  }
}
