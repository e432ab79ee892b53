import { InvalidCredentialsError, ServiceUnavailableError } from '@authz/shared/errors';
import { testLogger } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import type { AccessTokenDenyList, LiveAccessToken } from '../access-token/deny-list.js';
import type { AccountsPort, PendingDeletion } from './accounts-port.js';
import { deleteAccount } from './delete-account.js';
import { sweepAccountDeletions } from './deletion-sweeper.js';
import type { UserGrantsStore } from './user-grants-store.js';

// docs/identity.md #19: the order of an account deletion, and a crash at every step finished by
// the sweeper. The three services are stood in for by one in-memory world whose steps can fail.
const USER = '6f1c7c1e-4f7e-4b43-9d3a-2f0c2d9b8a11';
const DEVELOPER = '0b8e2a4c-7c55-4f0e-8a7b-1d2e3f4a5b6c';
const ORIGIN = { ip: '203.0.113.9', userAgent: 'vitest' };
type Step = 'begin' | 'revoke' | 'deleteGrants' | 'purgeDeveloper' | 'complete';

class World {
  readonly steps: Step[] = [];
  readonly denied = new Set<string>();
  deletingSince: number | undefined;
  accountExists = true;
  grants = true;
  liveTokens: LiveAccessToken[] = [{ jti: 'jti-1', expiresAt: 4_000_000_000 }];
  clients = true;
  private failing: Step | undefined;

  failOnce(step: Step): void {
    this.failing = step;
  }

  private run(step: Step): void {
    if (this.failing === step) {
      this.failing = undefined;
      throw new ServiceUnavailableError({ detail: `${step} crashed` });
    }
    this.steps.push(step);
  }

  readonly accounts: AccountsPort = {
    requireUserSession: async () => undefined,
    touchSession: async () => undefined,
    beginDeletion: async ({ password }) => {
      if (password !== 'right-Password-1') throw new InvalidCredentialsError();
      this.run('begin');
      this.deletingSince ??= Date.now();
      return { developerId: DEVELOPER };
    },
    beginDeletionAsAdmin: async () => {
      this.run('begin');
      this.deletingSince ??= Date.now();
      return { developerId: DEVELOPER };
    },
    completeDeletion: async () => {
      this.run('complete');
      // Step 4 only ever runs after every other service let go of the user.
      expect(this.grants || this.clients).toBe(false);
      this.accountExists = false;
      this.deletingSince = undefined;
    },
    listPendingDeletions: async (begunBefore): Promise<PendingDeletion[]> =>
      this.deletingSince !== undefined && this.deletingSince < begunBefore.getTime()
        ? [{ userId: USER, developerId: DEVELOPER }]
        : [],
    purgeDeveloper: async () => {
      this.run('purgeDeveloper');
      this.clients = false;
    },
  };

  readonly userGrants: UserGrantsStore = {
    revokeAll: async () => {
      this.run('revoke');
      return this.liveTokens;
    },
    deleteAll: async () => {
      this.run('deleteGrants');
      // Rows go only once their live access tokens are denied.
      expect(this.liveTokens.every(({ jti }) => this.denied.has(jti))).toBe(true);
      this.grants = false;
    },
  };

  readonly denyList: AccessTokenDenyList = {
    deny: async (jti) => {
      const fresh = !this.denied.has(jti);
      this.denied.add(jti);
      return fresh;
    },
    isDenied: async (jti) => this.denied.has(jti),
    // Deletion denies by jti only; the per-user cut-off (docs/tokens.md #31) is never asked for.
    cutOffUser: async () => {
      throw new Error('deletion does not cut off by time');
    },
    userCutOff: async () => undefined,
    standing: async (jti) => ({ denied: this.denied.has(jti), cutOff: undefined }),
  };

  get deps() {
    return {
      accounts: this.accounts,
      userGrants: this.userGrants,
      denyList: this.denyList,
      log: testLogger(),
    };
  }

  get done(): boolean {
    return !this.accountExists && !this.grants && !this.clients && this.denied.has('jti-1');
  }
}

const request = { userId: USER, password: 'right-Password-1', origin: ORIGIN };

describe('deleteAccount', () => {
  it('runs identity, oauth, clients, then identity again, in that order', async () => {
    const world = new World();
    await deleteAccount(world.deps, request);
    expect(world.steps).toEqual(['begin', 'revoke', 'deleteGrants', 'purgeDeveloper', 'complete']);
    expect(world.done).toBe(true);
  });

  it('changes nothing for a wrong password', async () => {
    const world = new World();
    await expect(deleteAccount(world.deps, { ...request, password: 'wrong' })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    expect(world.steps).toEqual([]);
    expect(world.deletingSince).toBeUndefined();
  });

  it.each<Step>(['revoke', 'deleteGrants', 'purgeDeveloper', 'complete'])(
    'a crash at %s leaves a marked account that the sweeper finishes',
    async (step) => {
      const world = new World();
      world.failOnce(step);
      await expect(deleteAccount(world.deps, request)).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(world.deletingSince).toBeDefined();
      expect(world.accountExists).toBe(true);

      // Within the grace period the sweeper leaves it to the request still running.
      expect(await sweepAccountDeletions(world.deps, 60_000)).toBe(0);
      expect(world.done).toBe(false);

      expect(await sweepAccountDeletions(world.deps, 0, Date.now() + 1)).toBe(1);
      expect(world.done).toBe(true);
      // Nothing pending any more: a later sweep does nothing.
      expect(await sweepAccountDeletions(world.deps, 0, Date.now() + 1)).toBe(0);
    },
  );

  it('a sweep that fails again is logged and retried by the next one', async () => {
    const world = new World();
    world.failOnce('purgeDeveloper');
    await expect(deleteAccount(world.deps, request)).rejects.toBeInstanceOf(ServiceUnavailableError);
    world.failOnce('complete');
    expect(await sweepAccountDeletions(world.deps, 0, Date.now() + 1)).toBe(0);
    expect(world.accountExists).toBe(true);
    expect(await sweepAccountDeletions(world.deps, 0, Date.now() + 1)).toBe(1);
    expect(world.done).toBe(true);
  });
});
