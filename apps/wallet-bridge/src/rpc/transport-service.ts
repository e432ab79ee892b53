import type { PresentationTransportService } from '@authz/proto/walletbridge/v1/walletbridge';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { Registry } from '../registry.js';
import { getRequestObject } from '../requests/get-request-object.js';
import { submitResponse } from '../requests/submit-response.js';

/** The wallet-facing transport (interface.md 4.9): thin translations (docs/conventions.md #2). */
export function transportServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof PresentationTransportService> {
  return {
    async getRequestObject({ handle }) {
      return { requestObject: await getRequestObject(registry, handle) };
    },
    async submitResponse(request) {
      return { redirectUri: await submitResponse(registry, request) };
    },
  };
}
