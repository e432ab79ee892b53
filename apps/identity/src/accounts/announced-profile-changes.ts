import type { UserChangeReason, UserChanges } from './user-changes.js';

type Method = (...args: never[]) => Promise<unknown>;

/** For one store method: the account whose profile a resolved call changed, if any. */
type Announcement<M> = M extends (...args: infer Args) => Promise<infer Result>
  ? { reason: UserChangeReason; changed: (result: Result, ...args: Args) => string | undefined }
  : never;

export type Announcements<Store> = {
  [Name in keyof Store as Store[Name] extends Method ? Name : never]?: Announcement<Store[Name]>;
};

/**
 * `store` with the named methods announcing, once their transaction has committed and before
 * they resolve, the account whose profile they changed (docs/identity.md #25): oauth's profile
 * cache then drops it before the caller can answer anyone. Every other method is the store's.
 */
export function announcing<Store extends object>(
  store: Store,
  announcements: Announcements<Store>,
  changes: UserChanges,
): Store {
  const announced = Object.create(store) as Record<string, unknown>;
  for (const [name, announcement] of Object.entries(announcements)) {
    const { reason, changed } = announcement as {
      reason: UserChangeReason;
      changed: (result: unknown, ...args: unknown[]) => string | undefined;
    };
    const method = (store as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!;
    announced[name] = async (...args: unknown[]) => {
      const result = await method.apply(store, args);
      const userId = changed(result, ...args);
      if (userId !== undefined) await changes.publish({ userId, reason });
      return result;
    };
  }
  return announced as Store;
}
