import { LinkStatus, type WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import type { ServiceClient } from '@authz/shared/grpc';
import type { FastifyInstance } from 'fastify';
import { sessionToken } from '../http/cookies.js';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RouteRateLimit } from '../plugins/rate-limit.js';
import { binderCookie, binderOf } from './binder-cookie.js';

export interface LinkRoutesOptions {
  flows: ServiceClient<typeof WalletFlowService>;
  /** The per-IP budget of starting wallet flows (wallet-flow-budget.ts). */
  startBudget: RouteRateLimit;
}

const linkStarted = {
  type: 'object',
  required: ['handle', 'invocation_uri', 'expires_at'],
  additionalProperties: false,
  properties: {
    handle: {
      type: 'string',
      description:
        'Names the flow in GET /auth/link/wallet/{handle} and its confirm and cancel; not the request_uri handle.',
    },
    invocation_uri: { type: 'string', description: 'The link (or QR code content) that opens the wallet.' },
    expires_at: { type: 'integer', description: 'When the flow expires, epoch milliseconds.' },
  },
} as const;

const linkPoll = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: {
    status: {
      type: 'string',
      enum: ['pending', 'presented', 'linked', 'conflict', 'expired', 'rejected', 'cancelled'],
      description:
        '`pending` until the wallet answers; `presented`: verified, waiting for confirm or cancel; ' +
        '`conflict`: the credential is linked to another account.',
    },
    message: { type: 'string', description: 'More about the outcome, for people.' },
    presented: {
      type: 'object',
      required: ['issuer'],
      additionalProperties: false,
      description: 'With `presented`: what the wallet presented, for the user to check before confirming.',
      properties: {
        issuer: { type: 'string', description: 'The credential issuer.' },
        email: { type: 'string', description: 'The email address the credential disclosed, if any.' },
      },
    },
  },
} as const;

type Outcome = Awaited<ReturnType<ServiceClient<typeof WalletFlowService>['getLinkOutcome']>>;

/** interface.md 4.2: the poll's JSON from wallet-bridge's outcome. */
function pollBody(outcome: Outcome) {
  const presented = outcome.presented;
  return {
    status: LinkStatus[outcome.status].toLowerCase(),
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    ...(presented === undefined
      ? {}
      : {
          presented: {
            issuer: presented.issuer,
            ...(presented.email === undefined ? {} : { email: presented.email }),
          },
        }),
  };
}

/** Flow ids are 43 base64url characters; anything much longer names nothing. */
const MAX_HANDLE_LENGTH = 128;

/**
 * interface.md 4.2 wallet linking. wallet-bridge checks, in order: the feature (404), the session
 * (401), the CSRF header (400 invalid_csrf_token), a sign-in within 5 minutes (401,
 * docs/wallet.md #19); the poll also needs the binder cookie and the starting user's session,
 * else the uniform refusal (404). A verified presentation waits as `presented` until this
 * browser confirms or cancels it (docs/wallet.md #16).
 */
export async function linkRoutes(app: FastifyInstance, { flows, startBudget }: LinkRoutesOptions) {
  const options = { schema: { response: { 200: linkStarted } }, config: { rateLimit: startBudget } };
  app.post('/auth/link/wallet', options, async (request, reply) => {
    const csrf = request.headers['x-csrf-token'];
    const { flow } = await flows.startLink({
      sessionToken: sessionToken(request) ?? '',
      csrfToken: typeof csrf === 'string' ? csrf : '',
      origin: requestOrigin(request),
    });
    noStore(reply).header('set-cookie', binderCookie(flow!.binder, flow!.expiresAt));
    return { handle: flow!.handle, invocation_uri: flow!.invocationUri, expires_at: Number(flow!.expiresAt) };
  });

  app.get<{ Params: { handle: string } }>(
    '/auth/link/wallet/:handle',
    { schema: { response: { 200: linkPoll } } },
    async (request, reply) => {
      const outcome = await flows.getLinkOutcome({
        handle: request.params.handle.slice(0, MAX_HANDLE_LENGTH),
        binder: binderOf(request),
        sessionToken: sessionToken(request) ?? '',
      });
      noStore(reply);
      return pollBody(outcome);
    },
  );

  // docs/wallet.md #16: the decision, from the browser that started the flow (session, binder,
  // and the session's CSRF token as for the start, docs/decisions.md #19).
  for (const [decision, confirm] of [
    ['confirm', true],
    ['cancel', false],
  ] as const) {
    app.post<{ Params: { handle: string } }>(
      `/auth/link/wallet/:handle/${decision}`,
      { schema: { response: { 200: linkPoll } } },
      async (request, reply) => {
        const csrf = request.headers['x-csrf-token'];
        const { outcome } = await flows.confirmLink({
          handle: request.params.handle.slice(0, MAX_HANDLE_LENGTH),
          binder: binderOf(request),
          sessionToken: sessionToken(request) ?? '',
          csrfToken: typeof csrf === 'string' ? csrf : '',
          confirm,
        });
        noStore(reply);
        return pollBody(outcome!);
      },
    );
  }
}
