import { randomBytes } from 'node:crypto';
import {
  HostedPagesService,
  type Page,
  type RenderPageResponse,
  type SignedIn,
  type SignInFailure,
} from '@authz/proto/consentui/v1/consentui';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { startService, type RunningService } from '@authz/shared/service';
import { testLogger } from '@authz/shared/testing';
import { buildConsentUiApp, loadConsentUiEnv } from '../src/app.js';

export const TEST_ORIGIN = { ip: '203.0.113.9', userAgent: 'vitest' };

export interface PageCall {
  query?: Record<string, string> | [string, string][];
  form?: Record<string, string> | [string, string][];
  cookies?: Record<string, string>;
}

export interface RunningConsentUi {
  pages: ServiceClient<typeof HostedPagesService>;
  secretHashKey: Buffer;
  render(method: string, path: string, call?: PageCall): Promise<RenderedPage>;
  close(): Promise<void>;
}

/**
 * consent-ui built and started on a spare port, called over real gRPC as the gateway would.
 * Its upstreams are whatever listens at the given addresses (test doubles, or nothing).
 */
export async function startConsentUi(upstreams: {
  identity: string;
  oauth: string;
  walletBridge?: string;
  issuer?: string;
}): Promise<RunningConsentUi> {
  const secretHashKey = randomBytes(32);
  const env = loadConsentUiEnv({
    JWT_ISSUER: upstreams.issuer ?? 'https://issuer.example',
    SECRET_HASH_KEY: secretHashKey.toString('hex'),
    IDENTITY_GRPC_URL: upstreams.identity,
    OAUTH_GRPC_URL: upstreams.oauth,
    ...(upstreams.walletBridge === undefined ? {} : { WALLET_BRIDGE_GRPC_URL: upstreams.walletBridge }),
  });
  const running: RunningService = await startService(
    await buildConsentUiApp({ env, logger: testLogger() }),
    '127.0.0.1',
    0,
  );
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  const pages = channel.service(HostedPagesService);
  return {
    pages,
    secretHashKey,
    async render(method, path, { query = {}, form = {}, cookies = {} } = {}) {
      return renderedPage(
        await pages.renderPage({
          method,
          path,
          query: fields(query),
          form: fields(form),
          cookies,
          origin: TEST_ORIGIN,
        }),
      );
    },
    async close() {
      channel.close();
      await running.close();
    },
  };
}

function fields(source: Record<string, string> | [string, string][]) {
  const entries = Array.isArray(source) ? source : Object.entries(source);
  return entries.map(([name, value]) => ({ name, value }));
}

/** The page of a RenderPage answer, whichever its outcome, with the sign-in's result beside it. */
export interface RenderedPage extends Page {
  /** Set when the request opened a browser session. */
  signedIn?: Pick<SignedIn, 'sessionToken' | 'cookieMaxAgeSeconds'>;
  /** Set when identity refused a sign-in. */
  signInFailed?: SignInFailure;
}

export function renderedPage({ outcome }: RenderPageResponse): RenderedPage {
  switch (outcome.case) {
    case 'page':
      return outcome.value;
    case 'signedIn': {
      const { page, sessionToken, cookieMaxAgeSeconds } = outcome.value;
      const lifetime = cookieMaxAgeSeconds === undefined ? {} : { cookieMaxAgeSeconds };
      return { ...page!, signedIn: { sessionToken, ...lifetime } };
    }
    case 'signInFailed':
      return { ...outcome.value.page!, signInFailed: outcome.value.reason };
    default:
      throw new Error('RenderPage answered no outcome');
  }
}

/**
 * Cookie values by name, as the browser holds them after the gateway wrote the answer: the
 * page's Set-Cookie values, and the session of a sign-in, whose cookie the gateway adds
 * (docs/hosted-pages.md #2).
 */
export function cookiesSet(page: Pick<RenderedPage, 'setCookies' | 'signedIn'>): Record<string, string> {
  const session = page.signedIn ? { [SESSION_COOKIE]: page.signedIn.sessionToken } : {};
  const set = page.setCookies.map((header) => {
    const [pair = ''] = header.split(';');
    const split = pair.indexOf('=');
    return [pair.slice(0, split), pair.slice(split + 1)];
  });
  return { ...session, ...Object.fromEntries(set) };
}

/** The value of the hidden input `name`, or undefined. */
export function hiddenField(page: Page, name: string): string | undefined {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.body);
  return match?.[1];
}

/** The text of the page's <h1>, whitespace collapsed. */
export function heading(page: Page): string | undefined {
  const match = /<h1>([\s\S]*?)<\/h1>/.exec(page.body);
  return match?.[1]?.replace(/\s+/g, ' ').trim();
}
