import type { InvalidatedCache } from './subscriber.js';

export interface InvalidatedEntriesOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
}

interface Entry<Value> {
  value: Value;
  expiresAt: number;
}

/**
 * Answers kept in memory and dropped by invalidation messages (docs/decisions.md #28): a
 * message drops the entries it names, everything is flushed whenever the subscription starts
 * or ends, and nothing lives longer than a short TTL. While the channel is not subscribed the
 * entries are bypassed: nothing is answered from memory and nothing is kept. Failures are
 * never kept, nor an answer that was in flight while anything was invalidated: it may predate
 * the change. At most `maxEntries`, the oldest first out.
 */
export class InvalidatedEntries<Value> implements InvalidatedCache {
  private readonly entries = new Map<string, Entry<Value>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private subscribed = false;
  private generation = 0;

  constructor({ maxEntries = 10_000, ttlMs = 30_000, now = Date.now }: InvalidatedEntriesOptions = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  get active(): boolean {
    return this.subscribed;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key`, else `load()`'s answer, kept when it succeeds. */
  async find(key: string, load: () => Promise<Value>): Promise<Value> {
    if (!this.subscribed) return load();
    const cached = this.lookup(key);
    if (cached) return cached.value;
    const generation = this.generation;
    const value = await load();
    if (this.subscribed && generation === this.generation) this.store(key, value);
    return value;
  }

  /** A message named this key. */
  drop(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** A message named something the keys do not show (a client, for entries keyed by credentials). */
  dropWhere(named: (value: Value) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (named(entry.value)) this.entries.delete(key);
  }

  /** Subscribed (again): whatever was missed meanwhile is unknown, so start empty. */
  activate(): void {
    this.flush();
    this.subscribed = true;
  }

  /** Not subscribed: messages may be missed from now on. */
  deactivate(): void {
    this.subscribed = false;
    this.flush();
  }

  /** Drops every entry, and any answer still in flight. */
  flush(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private lookup(key: string): Entry<Value> | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) this.entries.delete(key);
    else if (entry) return entry;
    return undefined;
  }

  private store(key: string, value: Value): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
