import type { HealthService } from '@authz/proto/health/v1/health';
import { ServingStatus } from '@authz/proto/health/v1/health';
import type { ServiceImplementation } from '../grpc/service-types.js';

/** A dependency probe: resolves when the dependency answers, rejects otherwise. */
export type DependencyCheck = () => Promise<unknown>;

/** Each probe must answer well within the gateway's 1 s deadline (docs/decisions.md #23). */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 800;

export async function isConnected(
  check: DependencyCheck,
  timeoutMs = DEPENDENCY_CHECK_TIMEOUT_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** HealthService.Check over the dependencies a service owns ("database", "cache", ...). */
export function healthServiceImplementation(
  checks: Record<string, DependencyCheck>,
): ServiceImplementation<typeof HealthService> {
  return {
    async check() {
      const dependencies = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => ({ name, connected: await isConnected(check) })),
      );
      const serving = dependencies.every((dependency) => dependency.connected);
      return {
        status: serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING,
        dependencies,
      };
    },
  };
}

/**
 * Start-up warm-up: opens a dependency's first connection before the service takes
 * traffic, so the first requests and health probes don't pay for it. A dependency that is
 * down does not stop the service from starting; it is logged and healed by reconnection.
 */
export async function warmUp(
  name: string,
  check: DependencyCheck,
  logger: { warn(object: object, message: string): void },
  timeoutMs = 3000,
): Promise<void> {
  if (!(await isConnected(check, timeoutMs)))
    logger.warn({ dependency: name }, 'dependency not reachable at start-up');
}
