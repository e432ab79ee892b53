import { InvalidClientError } from '@authz/shared/errors';

export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * RFC 6749 section 2.3.1: client_id and client_secret are form-urlencoded, then joined by ':'
 * and Base64-encoded into `Authorization: Basic`. Absent header: undefined. A malformed
 * header is a failed client authentication (invalid_client, no description: docs/decisions.md #21).
 */
export function parseBasicCredentials(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || !/^basic /i.test(header)) return undefined;
  const encoded = header.slice(6).trim();
  if (!/^[A-Za-z0-9+/]+=*$/.test(encoded)) throw new InvalidClientError({ detail: 'malformed Basic header' });
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) throw new InvalidClientError({ detail: 'Basic credentials without ":"' });
  try {
    return {
      clientId: formDecode(decoded.slice(0, separator)),
      clientSecret: formDecode(decoded.slice(separator + 1)),
    };
  } catch {
    throw new InvalidClientError({ detail: 'Basic credentials not form-urlencoded' });
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
