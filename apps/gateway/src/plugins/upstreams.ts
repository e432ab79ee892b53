import { ClientAdminService } from '@authz/proto/clients/v1/client_admin';
import { ClientsService } from '@authz/proto/clients/v1/clients';
import { HostedPagesService } from '@authz/proto/consentui/v1/consentui';
import { HealthService } from '@authz/proto/health/v1/health';
import { AccountRecoveryService } from '@authz/proto/identity/v1/account_recovery';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { AdminService } from '@authz/proto/identity/v1/admin';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import { AccountLifecycleService } from '@authz/proto/oauth/v1/accounts';
import {
  AuthorizationService,
  DiscoveryService,
  KeysService,
  TokenService,
} from '@authz/proto/oauth/v1/oauth';
import { SigningKeyAdminService } from '@authz/proto/oauth/v1/signing_keys';
import { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import { DeviceAuthorizationService } from '@authz/proto/oauth/v1/device_authorization';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import type { ServiceName } from '@authz/shared/topology';

export type UpstreamName = Exclude<ServiceName, 'mailer-worker'>;

/** One gRPC channel per service the gateway calls, with the typed clients it uses. */
export class Upstreams {
  readonly identity: ServiceClient<typeof IdentityService>;
  readonly accountRecovery: ServiceClient<typeof AccountRecoveryService>;
  readonly userTokens: ServiceClient<typeof UserTokensService>;
  readonly tokens: ServiceClient<typeof TokenService>;
  /** identity's sessions, profile and deletion steps (interface.md 4.10). */
  readonly accounts: ServiceClient<typeof AccountService>;
  /** identity's authenticator apps and recovery codes (docs/strong-authentication.md). */
  readonly secondFactors: ServiceClient<typeof SecondFactorService>;
  /** oauth's session ending and account deletion (interface.md 4.10). */
  readonly accountLifecycle: ServiceClient<typeof AccountLifecycleService>;
  readonly authorization: ServiceClient<typeof AuthorizationService>;
  readonly keys: ServiceClient<typeof KeysService>;
  readonly discovery: ServiceClient<typeof DiscoveryService>;
  readonly clients: ServiceClient<typeof ClientsService>;
  readonly hostedPages: ServiceClient<typeof HostedPagesService>;
  /** RFC 8628 device authorization (interface.md 4.13). */
  readonly deviceAuthorization: ServiceClient<typeof DeviceAuthorizationService>;
  /** The operator API (interface.md 4.15): identity's role, accounts and audit log. */
  readonly admin: ServiceClient<typeof AdminService>;
  readonly clientAdmin: ServiceClient<typeof ClientAdminService>;
  readonly signingKeys: ServiceClient<typeof SigningKeyAdminService>;
  private readonly channels = new Map<UpstreamName, GrpcChannel>();
  private readonly healthClients = new Map<UpstreamName, ServiceClient<typeof HealthService>>();

  constructor(addresses: Record<UpstreamName, string>) {
    for (const [name, address] of Object.entries(addresses) as [UpstreamName, string][]) {
      this.channels.set(name, new GrpcChannel(address));
    }
    this.identity = this.channel('identity').service(IdentityService);
    this.accountRecovery = this.channel('identity').service(AccountRecoveryService);
    this.userTokens = this.channel('oauth').service(UserTokensService);
    // The calls every client or resource server makes at rate travel in batches under load
    // (docs/performance.md #11): tokens, introspection, UserInfo, bearer-token checks.
    this.tokens = this.channel('oauth').service(TokenService, {
      batched: ['token', 'introspect', 'userInfo', 'verifyAccessToken'],
    });
    this.accounts = this.channel('identity').service(AccountService);
    this.secondFactors = this.channel('identity').service(SecondFactorService);
    this.accountLifecycle = this.channel('oauth').service(AccountLifecycleService);
    this.authorization = this.channel('oauth').service(AuthorizationService);
    this.keys = this.channel('oauth').service(KeysService);
    this.discovery = this.channel('oauth').service(DiscoveryService);
    this.clients = this.channel('clients').service(ClientsService);
    this.hostedPages = this.channel('consent-ui').service(HostedPagesService);
    this.deviceAuthorization = this.channel('oauth').service(DeviceAuthorizationService);
    this.admin = this.channel('identity').service(AdminService);
    this.clientAdmin = this.channel('clients').service(ClientAdminService);
    this.signingKeys = this.channel('oauth').service(SigningKeyAdminService);
  }

  health(name: UpstreamName): ServiceClient<typeof HealthService> {
    let client = this.healthClients.get(name);
    if (!client) {
      client = this.channel(name).service(HealthService);
      this.healthClients.set(name, client);
    }
    return client;
  }

  close(): void {
    for (const channel of this.channels.values()) channel.close();
  }

  private channel(name: UpstreamName): GrpcChannel {
    const channel = this.channels.get(name);
    if (!channel) throw new Error(`no address configured for ${name}`);
    return channel;
  }
}
