import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createAddressFilteringAgent, isAddressRefusal } from './address-filtering-agent.js';
import { checkOutboundUrl } from './check-outbound-url.js';
import { refuseIpv4CompatibleLiteral } from './ipv4-compatible-address.js';
import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundPolicy } from './outbound-policy.js';
import { readCappedBody } from './read-capped-body.js';

/**
 * POSTs an application/x-www-form-urlencoded body to a URL an untrusted party chose (a
 * back-channel logout URI) under the same rules as fetchPublicDocument: https (loopback http
 * only under the test policy), public addresses only, one deadline, a capped response body.
 * Resolves with the status whatever it is; redirects are not followed.
 */
export async function postForm(
  url: string,
  fields: Readonly<Record<string, string>>,
  policy: OutboundPolicy,
): Promise<{ status: number }> {
  const target = checkOutboundUrl(url, policy);
  refuseIpv4CompatibleLiteral(target);
  const body = new URLSearchParams(fields).toString();
  return await new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'POST',
      agent: createAddressFilteringAgent(target, policy),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
      },
    });
    const fail = (error: unknown) => {
      clearTimeout(deadline);
      reject(toOutboundFetchError(error));
      request.destroy();
    };
    const deadline = setTimeout(
      () => fail(new OutboundFetchError('timeout', `no complete response within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    );
    request.on('error', fail);
    request.on('response', (response) => {
      readCappedBody(response, policy.maxBytes).then(() => {
        clearTimeout(deadline);
        resolve({ status: response.statusCode ?? 0 });
      }, fail);
    });
    request.end(body);
  });
}

function toOutboundFetchError(error: unknown): OutboundFetchError {
  if (error instanceof OutboundFetchError) return error;
  if (isAddressRefusal(error)) {
    return new OutboundFetchError('address', 'host resolves to an address that is not public', {
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new OutboundFetchError('network', code ? `network error (${code})` : 'network error', {
    cause: error,
  });
}
