import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createAddressFilteringAgent, isAddressRefusal } from './address-filtering-agent.js';
import { checkOutboundUrl } from './check-outbound-url.js';
import { refuseIpv4CompatibleLiteral } from './ipv4-compatible-address.js';
import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundPolicy } from './outbound-policy.js';
import { readCappedBody } from './read-capped-body.js';

/** What a protocol library hands its custom fetch (openid-client's `customFetch`). */
export interface OutboundRequestInit {
  method?: string;
  headers?: Headers | Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | null;
}

/** A fetch-shaped function for libraries that call out with their own requests. */
export type OutboundFetch = (url: string, init?: OutboundRequestInit) => Promise<Response>;

/**
 * A fetch-shaped client under the outbound rules of fetchPublicDocument: https only (loopback
 * http only under the test policy), public addresses only (checked on the connected address,
 * so DNS rebinding gains nothing), no redirects followed, one deadline, a capped body. Unlike
 * fetchPublicDocument it answers every status and content type, and sends a method, headers
 * and a body: a protocol library (an OpenID relying party) reads error responses itself.
 */
export function outboundFetch(policy: OutboundPolicy): OutboundFetch {
  return async (url, init = {}) => {
    const target = checkOutboundUrl(url, policy);
    refuseIpv4CompatibleLiteral(target);
    const body = bodyOf(init.body);
    const headers = headersOf(init.headers);
    if (body !== undefined) headers['content-length'] = String(body.length);
    return await send(target, init.method ?? 'GET', headers, body, policy);
  };
}

function bodyOf(body: OutboundRequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  return Buffer.from(body);
}

function headersOf(headers: OutboundRequestInit['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (plain[name] = value));
  else if (headers) for (const [name, value] of Object.entries(headers)) plain[name.toLowerCase()] = value;
  return plain;
}

function send(
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  policy: OutboundPolicy,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method,
      agent: createAddressFilteringAgent(target, policy),
      headers,
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
      readCappedBody(response, policy.maxBytes).then((received) => {
        clearTimeout(deadline);
        resolve(toResponse(response, received));
      }, fail);
    });
    request.end(body);
  });
}

function toResponse(response: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = response.statusCode ?? 502;
  // A Response cannot carry a body with these statuses (Fetch standard "null body status").
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
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
