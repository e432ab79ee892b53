import {
  SignInFailure,
  type HostedPagesService,
  type RenderPageRequest,
  type RenderPageResponseSchema,
} from '@authz/proto/consentui/v1/consentui';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { authorizationErrorPage } from '../pages/authorization/error-page.js';
import { RequestFields, type PageRequest } from '../pages/shared/page-request.js';
import type { PageResult, SignInOutcome } from '../pages/shared/page-result.js';
import type { Registry } from '../registry.js';
import { renderPage } from '../pages/page-routes.js';

/** HostedPagesService: thin translations between the wire messages and the pages. */
export function hostedPagesServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof HostedPagesService> {
  return {
    async renderPage(request, { log }) {
      return outcomeToWire(await renderPage(deps, fromWire(request), log));
    },
    async renderAuthorizationError({ error, errorDescription }) {
      return { page: toWire(authorizationErrorPage(deps, { error, description: errorDescription })) };
    },
  };
}

function fromWire({ method, path, query, form, cookies, origin }: RenderPageRequest): PageRequest {
  return {
    method,
    path,
    query: new RequestFields(query),
    form: new RequestFields(form),
    cookies,
    origin: { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' },
  };
}

const FAILURES: Record<Extract<SignInOutcome, { kind: 'failed' }>['reason'], SignInFailure> = {
  invalid_credentials: SignInFailure.INVALID_CREDENTIALS,
  rate_limited: SignInFailure.RATE_LIMITED,
};

/**
 * A sign-in's result travels typed, so the gateway sets the session cookie with its own code
 * and counts the attempt without reading headers (docs/hosted-pages.md #1, #2). The session
 * cookie keeps no Max-Age (cookie_max_age_seconds unset).
 */
function outcomeToWire(result: PageResult): MessageInitShape<typeof RenderPageResponseSchema> {
  const page = toWire(result);
  const signIn = result.signIn;
  if (signIn?.kind === 'signed_in') {
    return { outcome: { case: 'signedIn', value: { sessionToken: signIn.sessionToken, page } } };
  }
  if (result.signedOut) return { outcome: { case: 'signedOut', value: { page } } };
  if (signIn?.kind === 'failed') {
    return { outcome: { case: 'signInFailed', value: { reason: FAILURES[signIn.reason], page } } };
  }
  return { outcome: { case: 'page', value: page } };
}

function toWire({
  status,
  contentType,
  body,
  location,
  setCookies,
  formActionOrigins = [],
  sameOriginScripts = false,
}: PageResult) {
  return {
    status,
    contentType,
    body,
    ...(location === undefined ? {} : { location }),
    setCookies,
    formActionOrigins,
    sameOriginScripts,
  };
}
