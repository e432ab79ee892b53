import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createAddressFilteringAgent, isAddressRefusal } from './address-filtering-agent.js';
import { checkDocumentResponse } from './check-document-response.js';
import { checkOutboundUrl } from './check-outbound-url.js';
import { refuseIpv4CompatibleLiteral } from './ipv4-compatible-address.js';
import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundPolicy } from './outbound-policy.js';
import { readCappedBody } from './read-capped-body.js';

export interface FetchedDocument {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GET a document whose URL an untrusted party chose (a CIMD client_id, a jwks_uri) with
 * Accept: application/json; resolves only on a 200 with a JSON content type. node:http, not
 * fetch: the address-filtering agent does not plug into fetch.
 */
export async function fetchPublicDocument(url: string, policy: OutboundPolicy): Promise<FetchedDocument> {
  const target = checkOutboundUrl(url, policy);
  refuseIpv4CompatibleLiteral(target);
  return await requestDocument(target, policy);
}

function requestDocument(target: URL, policy: OutboundPolicy): Promise<FetchedDocument> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'GET',
      agent: createAddressFilteringAgent(target, policy),
      headers: { accept: 'application/json' },
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
    // `on`, not `once`: destroying the request may emit a second error after the first.
    request.on('error', fail);
    request.on('response', (response) => {
      receiveDocument(response, policy.maxBytes).then((document) => {
        clearTimeout(deadline);
        resolve(document);
      }, fail);
    });
    request.end();
  });
}

async function receiveDocument(response: IncomingMessage, maxBytes: number): Promise<FetchedDocument> {
  checkDocumentResponse(response);
  const body = await readCappedBody(response, maxBytes);
  return { status: 200, headers: response.headers, body };
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
