import { normalizeError } from '@authz/shared/errors';
import type { TokenSet } from '@authz/proto/oauth/v1/oauth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { presentedAccessToken } from '../http/bearer-token.js';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import {
  consumeLoginBudgets,
  loginOutcome,
  rememberSignInAddress,
  type LoginLimits,
} from './login-limits.js';
import * as schemas from './schemas.js';
import { mfaLoginBody, mfaRequiredResponse } from './second-factor-schemas.js';
import { toUserView, userViewSchema } from './user-view.js';

export interface AuthRoutesOptions {
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  budgets: { login: LoginLimits; register: RateLimitBudget };
}

interface Credentials {
  email: string;
  password: string;
}

/** docs/interface.md 4.11: what POST /auth/login/mfa accepts. */
const SECOND_STEP_METHODS = ['totp', 'recovery_code'];

export const RESEND_MESSAGE =
  'If the address belongs to an unverified account, a new verification email is on its way';

/** interface.md 4.2: first-party authentication. Identity owns accounts; oauth mints every token. */
export async function authRoutes(app: FastifyInstance, { upstreams, metrics, budgets }: AuthRoutesOptions) {
  app.post<{ Body: Partial<Credentials> & { realmId?: string } }>(
    '/auth/register',
    {
      config: { rateLimit: { bucket: 'register', ...budgets.register } },
      schema: { body: schemas.registerBody, response: { 201: userViewSchema } },
    },
    async (request, reply) => {
      const { email, password, realmId } = request.body;
      // Absent is empty for identity, which names each missing field (interface.md 7).
      const { user } = await upstreams.identity.register({
        email: email ?? '',
        password: password ?? '',
        ...(realmId === undefined ? {} : { realmId }),
        origin: requestOrigin(request),
      });
      return reply.code(201).send(toUserView(user!));
    },
  );

  app.post<{ Body: Credentials }>(
    '/auth/login',
    {
      // Limits are counted inside the handler so rate-limited attempts show in the metrics.
      config: { rateLimit: false },
      schema: {
        body: schemas.credentialsBody,
        // docs/interface.md 4.11: an account with a second factor gets an mfa_token, no tokens.
        response: { 200: { anyOf: [schemas.firstPartyTokenResponse, mfaRequiredResponse] } },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      try {
        await consumeLoginBudgets(request, budgets.login, email);
        const { tokens, mfaToken } = await upstreams.tokens.loginFirstParty({
          email,
          password,
          origin: requestOrigin(request),
        });
        if (mfaToken !== undefined) {
          metrics.loginAttempts.inc({ outcome: 'second_step' });
          return noStore(reply).send({
            mfa_required: true,
            mfa_token: mfaToken,
            methods: SECOND_STEP_METHODS,
          });
        }
        await rememberSignInAddress(request, budgets.login, email);
        metrics.loginAttempts.inc({ outcome: 'success' });
        return sendFirstPartyTokens(reply, tokens!);
      } catch (error) {
        metrics.loginAttempts.inc({ outcome: loginOutcome(normalizeError(error)) });
        throw error;
      }
    },
  );

  app.post<{ Body: { mfaToken?: string; code?: string } | undefined }>(
    '/auth/login/mfa',
    {
      config: { rateLimit: false },
      schema: { body: mfaLoginBody, response: { 200: schemas.firstPartyTokenResponse } },
    },
    async (request, reply) => {
      try {
        // The per-address sign-in budget; identity counts failures per account
        // (docs/strong-authentication.md #7).
        await consumeLoginBudgets(request, budgets.login, undefined);
        const { tokens } = await upstreams.tokens.completeFirstPartyLogin({
          mfaToken: request.body?.mfaToken ?? '',
          code: request.body?.code ?? '',
          origin: requestOrigin(request),
        });
        metrics.loginAttempts.inc({ outcome: 'success' });
        return sendFirstPartyTokens(reply, tokens!);
      } catch (error) {
        metrics.loginAttempts.inc({ outcome: loginOutcome(normalizeError(error)) });
        throw error;
      }
    },
  );

  function sendFirstPartyTokens(reply: FastifyReply, tokens: TokenSet) {
    metrics.tokensIssued.inc({ type: 'access', grant: 'first_party_login' });
    metrics.tokensIssued.inc({ type: 'refresh', grant: 'first_party_login' });
    return noStore(reply).send({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expires_in: tokens.expiresIn,
      token_type: tokens.tokenType,
    });
  }

  app.post(
    '/auth/logout',
    { config: { authChallenge: 'Bearer' }, schema: { response: { 200: schemas.logoutResponse } } },
    async (request) => {
      await upstreams.tokens.logout({ ...presentedAccessToken(request), origin: requestOrigin(request) });
      return { success: true, message: 'Logged out' };
    },
  );

  app.get<{ Querystring: { token: string } }>(
    '/auth/verify',
    { schema: { querystring: schemas.verifyQuery, response: { 200: schemas.verifyResponse } } },
    async (request) => {
      const { email } = await upstreams.identity.verifyEmail({
        token: request.query.token,
        origin: requestOrigin(request),
      });
      return { message: 'Email verified', email };
    },
  );

  app.post<{ Body: { email: string } }>(
    '/auth/resend-verification',
    { schema: { body: schemas.emailBody, response: { 200: schemas.messageResponse } } },
    async (request) => {
      await upstreams.identity.resendVerification({
        email: request.body.email,
        origin: requestOrigin(request),
      });
      return { message: RESEND_MESSAGE };
    },
  );
}
