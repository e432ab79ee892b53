/**
 * A public document the gateway serves from oauth, fetched at most once per `ttlMs`: every
 * client and resource server asks for it, so the hot path skips the gRPC hop. Concurrent
 * misses share one fetch; a failed fetch is not cached (the next request tries again).
 */
export class UpstreamCache<T> {
  private cached: { value: T; expiresAt: number } | undefined;
  private pending: Promise<T> | undefined;

  constructor(
    private readonly fetch: () => Promise<T>,
    private readonly ttlMs: number,
  ) {}

  async get(now = Date.now()): Promise<T> {
    if (this.cached && this.cached.expiresAt > now) return this.cached.value;
    this.pending ??= this.fetch()
      .then((value) => {
        this.cached = { value, expiresAt: Date.now() + this.ttlMs };
        return value;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}
