import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { withClientAuthFailureBudget } from './client-auth-failures.js';
import type { FormFields } from './form-body.js';

export interface DeviceAuthorizationRouteOptions {
  upstreams: Upstreams;
  /** invalid_client answers per address, shared with the token endpoint (docs/security.md #11). */
  authFailureBudget: RateLimitBudget;
}

/** RFC 8628 section 3.2. */
const deviceAuthorizationResponse = {
  type: 'object',
  required: [
    'device_code',
    'user_code',
    'verification_uri',
    'verification_uri_complete',
    'expires_in',
    'interval',
  ],
  additionalProperties: false,
  properties: {
    device_code: {
      type: 'string',
      description: 'What the device polls the token endpoint with; single use.',
    },
    user_code: { type: 'string', description: 'What the user types on `verification_uri`: `XXXX-XXXX`.' },
    verification_uri: { type: 'string', description: 'The hosted page `/ui/device` under the issuer.' },
    verification_uri_complete: {
      type: 'string',
      description: '`verification_uri` with the user code filled in (`?user_code=`), e.g. for a QR code.',
    },
    expires_in: { type: 'integer', description: 'Seconds both codes live: 600.' },
    interval: { type: 'integer', description: 'Seconds to wait between polls: 5.' },
  },
} as const;

/** RFC 8628 section 3.1 (interface.md 4.13): oauth authenticates the client and issues the codes. */
export async function deviceAuthorizationRoute(
  app: FastifyInstance,
  { upstreams, authFailureBudget }: DeviceAuthorizationRouteOptions,
) {
  app.post<{ Body: FormFields }>(
    '/oauth/device_authorization',
    {
      // Limited per client by oauth, not per address, as the token endpoint (docs/device-grant.md #5).
      config: { errorFormat: 'oauth', authChallenge: 'Basic', rateLimit: 'per-client' },
      schema: { response: { 200: deviceAuthorizationResponse } },
    },
    async (request, reply) => {
      const parameters = Array.isArray(request.body) ? request.body : [];
      const basic = parseBasicCredentials(request.headers.authorization);
      const started = await withClientAuthFailureBudget(request, authFailureBudget, () =>
        upstreams.deviceAuthorization.startDeviceAuthorization({
          parameters,
          ...(basic ? { basic } : {}),
          origin: requestOrigin(request),
        }),
      );
      noStore(reply);
      return {
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: started.verificationUri,
        verification_uri_complete: started.verificationUriComplete,
        expires_in: started.expiresIn,
        interval: started.interval,
      };
    },
  );
}
