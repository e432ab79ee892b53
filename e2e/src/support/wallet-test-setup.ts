import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { GrpcChannel } from '@authz/shared/grpc';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { createTestVerifierChain, type TestVerifierChain } from './test-verifier.js';
import { TestIssuer, writeTrustedIssuers } from './test-wallet.js';

export const PASSWORD = 'amber-Falcon-meadow-27';

export interface WalletFixture {
  chain: TestVerifierChain;
  issuer: TestIssuer;
  /** Same shape as `issuer`, absent from the trusted-issuers file. */
  untrusted: TestIssuer;
  serviceEnv: Record<string, string>;
  gatewayEnv: Record<string, string>;
  removeFiles(): void;
}

/** A verifier chain, a trusted and an untrusted issuer, and the WALLET_* settings naming them. */
export async function createWalletFixture(): Promise<WalletFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-test-'));
  const chain = await createTestVerifierChain(dir);
  const issuer = await TestIssuer.create('https://issuer.example');
  const untrusted = await TestIssuer.create('https://untrusted.example');
  return {
    chain,
    issuer,
    untrusted,
    serviceEnv: {
      WALLET_FEDERATION_ENABLED: 'true',
      WALLET_VERIFIER_KEY_FILE: chain.keyFile,
      WALLET_VERIFIER_CERT_CHAIN_FILE: chain.chainFile,
      WALLET_TRUSTED_ISSUERS_FILE: writeTrustedIssuers(dir, [issuer]),
    },
    // Tests start many flows from one address; wallet-flow-limit.test.ts covers the budget.
    gatewayEnv: { WALLET_FEDERATION_ENABLED: 'true', WALLET_FLOW_RATE_LIMIT: '1000' },
    removeFiles: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface BrowserUser {
  userId: string;
  email: string;
  sessionToken: string;
  csrfToken: string;
  /** The Cookie header of the signed-in browser. */
  cookie: string;
}

/**
 * A user signed in as the hosted pages would, straight through identity; registered first
 * unless `registered`.
 */
export async function signedInBrowser(
  identityUrl: string,
  email: string,
  registered = false,
): Promise<BrowserUser> {
  const channel = new GrpcChannel(identityUrl);
  try {
    const identity = channel.service(IdentityService);
    if (!registered) await identity.register({ email, password: PASSWORD });
    const { sessionToken } = await identity.checkCredentials({
      email,
      password: PASSWORD,
      browserSession: true,
    });
    const session = await identity.getBrowserSession({ sessionToken: sessionToken! });
    return {
      userId: session.user!.id,
      email,
      sessionToken: sessionToken!,
      csrfToken: session.csrfToken,
      cookie: `${SESSION_COOKIE}=${sessionToken}`,
    };
  } finally {
    channel.close();
  }
}
