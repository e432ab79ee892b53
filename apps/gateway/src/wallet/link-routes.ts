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
    handle: { type: 'string', description: 'Names the flow in GET /auth/link/wallet/{handle}.' },
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
      enum: ['pending', 'linked', 'conflict', 'expired', 'rejected'],
      description:
        '`pending` until the wallet answers; `conflict`: the credential is linked to another account.',
    },
    message: { type: 'string', description: 'More about the outcome, for people.' },
  },
} as const;

/**
 * interface.md 4.2 wallet linking. wallet-bridge checks, in order: the feature (404), the session
 * (401), the CSRF header (400 invalid_csrf_token); the poll also needs the binder cookie and
 * the starting user's session, else the uniform refusal (404).
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
        handle: request.params.handle.slice(0, 128),
        binder: binderOf(request),
        sessionToken: sessionToken(request) ?? '',
      });
      noStore(reply);
      return {
        status: LinkStatus[outcome.status].toLowerCase(),
        ...(outcome.message === undefined ? {} : { message: outcome.message }),
      };
    },
  );
}
