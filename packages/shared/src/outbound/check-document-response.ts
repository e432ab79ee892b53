import type { IncomingMessage } from 'node:http';
import { OutboundFetchError } from './outbound-fetch-error.js';

/**
 * RFC 6839 §3.1: the +json suffix names a JSON-based type, e.g. application/jwk-set+json
 * (RFC 7517 §8.5). The CIMD draft accepts application/json or application/<AS-defined>+json.
 */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.+-]+\+)?json$/;

/**
 * draft-ietf-oauth-client-id-metadata-document, Client Information Discovery: only a 200 with a
 * JSON content type is a document, any other status is an error and redirects are not followed
 * (the Location may point anywhere, and the document would no longer sit at its own URL).
 */
export function checkDocumentResponse(response: IncomingMessage): void {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    throw new OutboundFetchError('redirect', `redirect (status ${status}) not followed`);
  }
  if (status !== 200) throw new OutboundFetchError('status', `unexpected status ${status}`);
  if (!isJsonMediaType(response.headers['content-type'])) {
    throw new OutboundFetchError('content_type', 'content type is not application/json or a +json type');
  }
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return JSON_MEDIA_TYPE.test(mediaType);
}
