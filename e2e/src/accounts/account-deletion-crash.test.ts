import { AccountService } from '@authz/proto/identity/v1/accounts';
import { GrpcChannel } from '@authz/shared/grpc';
import { afterAll, describe, expect, it } from 'vitest';
import {
  accountCall,
  querySql,
  refreshFirstParty,
  rowsMentioning,
  signIn,
  signUp,
} from '../support/accounts.js';
import { UNAUTHORIZED, type ClientView } from '../support/clients.js';
import { newClient } from '../support/tokens.js';
import { useSuite } from '../support/use-suite.js';

// docs/identity.md #19: an account deletion interrupted halfway is finished by oauth's sweeper.
// The crash is simulated by running only the first step (identity marks the account deleting
// and ends its sessions) and never the rest, as if the orchestrating oauth replica had died
// right after it. The sweeper looks every 250 ms at deletions begun over 10 s ago: long enough
// for the halfway state to be looked at on a loaded machine before the sweeper finishes it.
const context = useSuite({
  serviceEnv: { ACCOUNT_DELETION_SWEEP_INTERVAL_MS: '250', ACCOUNT_DELETION_GRACE_MS: '10000' },
});

let channel: GrpcChannel | undefined;
afterAll(() => channel?.close());

describe('an account deletion interrupted after its first step', () => {
  it('leaves the account unusable at once, and the sweeper completes it in every schema', async () => {
    const user = await signUp(context.suite, 'crash');
    const session = await signIn(context.suite, user, 'CrashTest/1.0');
    const owned = (await newClient(context.suite, session.accessToken, {
      name: 'Half-deleted machine',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'client_secret_basic',
    })) as ClientView;
    const [developer] = await querySql<{ id: string }>(
      context.databaseUrl,
      'SELECT id FROM identity.developers WHERE user_id = $1',
      [user.userId],
    );
    const needles = [user.userId, user.email, developer!.id, owned.clientId];

    channel = new GrpcChannel(context.suite.oauthEnv.IDENTITY_GRPC_URL!);
    const accounts = channel.service(AccountService);
    const begun = await accounts.beginAccountDeletion({
      userId: user.userId,
      password: user.password,
      origin: { ip: '127.0.0.1', userAgent: 'CrashTest/1.0' },
    });
    expect(begun.developerId).toBe(developer!.id);

    // Halfway: the account is marked, its sessions ended; oauth's and clients' rows remain.
    const [marked] = await querySql<{ deleting_at: Date | null }>(
      context.databaseUrl,
      'SELECT deleting_at FROM identity.users WHERE id = $1',
      [user.userId],
    );
    expect(marked?.deleting_at).toBeInstanceOf(Date);
    const halfway = new Set((await rowsMentioning(context.databaseUrl, needles)).map(({ table }) => table));
    expect([...halfway]).toEqual(
      expect.arrayContaining(['identity.users', 'oauth.refresh_token_families', 'clients.clients']),
    );
    // Already unusable: no sign-in, no refresh, no account API.
    const login = await accountCall(context.suite, 'POST', '/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(401);
    expect((await refreshFirstParty(context.suite, session.refreshToken)).status).toBe(400);
    const me = await accountCall(context.suite, 'GET', '/auth/me', { token: session.accessToken });
    expect({ status: me.status, body: me.body }).toEqual({ status: 401, body: UNAUTHORIZED });

    // The sweeper repeats the remaining steps: nothing of the user is left anywhere.
    await expect
      .poll(() => rowsMentioning(context.databaseUrl, needles), { timeout: 30_000, interval: 250 })
      .toEqual([]);
    const deletions = await querySql<{ actor_user_id: string | null }>(
      context.databaseUrl,
      "SELECT actor_user_id FROM identity.audit_events WHERE type = 'account_deleted'",
    );
    expect(deletions).toEqual([{ actor_user_id: null }]);
    // The first-party access token was denied by the purge.
    const sessions = await accountCall(context.suite, 'GET', '/auth/sessions', {
      token: session.accessToken,
    });
    expect({ status: sessions.status, body: sessions.body }).toEqual({ status: 401, body: UNAUTHORIZED });
  }, 60_000);
});
