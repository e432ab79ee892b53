import type { HostedPagesService, RenderPageRequest } from '@authz/proto/consentui/v1/consentui';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { authorizationErrorPage } from '../pages/authorization/error-page.js';
import { RequestFields, type PageRequest } from '../pages/shared/page-request.js';
import type { PageResult } from '../pages/shared/page-result.js';
import type { Registry } from '../registry.js';
import { renderPage } from '../pages/page-routes.js';

/** HostedPagesService: thin translations between the wire messages and the pages. */
export function hostedPagesServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof HostedPagesService> {
  return {
    async renderPage(request, { log }) {
      return { page: toWire(await renderPage(deps, fromWire(request), log)) };
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

function toWire({ status, contentType, body, location, setCookies, formActionOrigins = [] }: PageResult) {
  return {
    status,
    contentType,
    body,
    ...(location === undefined ? {} : { location }),
    setCookies,
    formActionOrigins,
  };
}
