import type {
  LogoutOutcomeSchema,
  AuthorizationOutcomeSchema,
  AuthorizationService,
  RequestOrigin as WireOrigin,
} from '@authz/proto/oauth/v1/oauth';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AuthorizationOutcome } from '../protocol/authorize/authorization-outcome.js';
import { authorize } from '../protocol/authorize/authorize.js';
import { decideConsent, getConsentPrompt } from '../protocol/authorize/consent-decision.js';
import { getPendingAuthorization, resumeAuthorization } from '../protocol/authorize/resume-authorization.js';
import { listConsents, revokeConsent } from '../protocol/consent/consents.js';
import { endSession } from '../protocol/logout/end-session.js';
import type { LogoutOutcome } from '../protocol/logout/logout-outcome.js';
import { confirmLogout, getLogoutPrompt } from '../protocol/logout/logout-prompt.js';
import type { RequestOrigin } from '../protocol/identity-port.js';
import type { Registry } from '../registry.js';
import { announcedNonce } from '../protocol/dpop/check-token-request-proof.js';
import { pushAuthorizationRequest } from '../protocol/par/push-authorization-request.js';
import { postedFromWire } from './token-service.js';

/** AuthorizationService: thin translations between the wire messages and the protocol logic. */
export function authorizationServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof AuthorizationService> {
  return {
    async authorize({ parameters, sessionToken, origin }) {
      const outcome = await authorize(deps, {
        parameters: parameters.map(({ name, value }) => ({ name, value })),
        ...(sessionToken ? { sessionToken } : {}),
        origin: fromWire(origin),
      });
      return { outcome: outcomeToWire(outcome) };
    },
    async pushAuthorizationRequest(request) {
      const posted = postedFromWire(request);
      const pushed = await pushAuthorizationRequest(deps, posted);
      const dpopNonce = announcedNonce(deps, posted.dpop);
      return { ...pushed, ...(dpopNonce ? { dpopNonce } : {}) };
    },
    async getPendingAuthorization({ handle }) {
      return getPendingAuthorization(deps, handle);
    },
    async resumeAuthorization({ handle, sessionToken }) {
      const outcome = await resumeAuthorization(deps, { handle, ...(sessionToken ? { sessionToken } : {}) });
      return { outcome: outcomeToWire(outcome) };
    },
    async getConsentPrompt({ handle, sessionToken }) {
      return getConsentPrompt(deps, handle, sessionToken);
    },
    async decideConsent({ handle, sessionToken, allow }) {
      return { outcome: outcomeToWire(await decideConsent(deps, { handle, sessionToken, allow })) };
    },
    async listConsents({ userId }) {
      const consents = await listConsents(deps, userId);
      return {
        consents: consents.map(({ id, clientId, clientName, scopes, grantedAt }) => ({
          id,
          clientId,
          clientName,
          scopes,
          grantedAt: BigInt(grantedAt.getTime()),
        })),
      };
    },
    async revokeConsent({ userId, consentId }) {
      await revokeConsent(deps, userId, consentId);
      return {};
    },
    async endSession({ parameters, sessionToken, origin }) {
      const outcome = await endSession(deps, {
        parameters: parameters.map(({ name, value }) => ({ name, value })),
        ...(sessionToken ? { sessionToken } : {}),
        origin: fromWire(origin),
      });
      return { outcome: logoutOutcomeToWire(outcome) };
    },
    async getLogoutPrompt({ handle, sessionToken }) {
      return getLogoutPrompt(deps, handle, sessionToken);
    },
    async confirmLogout({ handle, sessionToken, origin }) {
      const outcome = await confirmLogout(deps, { handle, sessionToken, origin: fromWire(origin) });
      return { outcome: logoutOutcomeToWire(outcome) };
    },
  };
}

function logoutOutcomeToWire({
  next,
  clearSessionCookie,
}: LogoutOutcome): MessageInitShape<typeof LogoutOutcomeSchema> {
  if ('redirectTo' in next)
    return { next: { case: 'redirectTo', value: next.redirectTo }, clearSessionCookie };
  const { error, description } = next.errorPage;
  return { next: { case: 'errorPage', value: { error, errorDescription: description } }, clearSessionCookie };
}

function outcomeToWire(outcome: AuthorizationOutcome): MessageInitShape<typeof AuthorizationOutcomeSchema> {
  if ('redirectTo' in outcome) return { next: { case: 'redirectTo', value: outcome.redirectTo } };
  const { error, description } = outcome.errorPage;
  return { next: { case: 'errorPage', value: { error, errorDescription: description } } };
}

function fromWire(origin: WireOrigin | undefined): RequestOrigin {
  return { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' };
}
