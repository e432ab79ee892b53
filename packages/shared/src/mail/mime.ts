/**
 * Just enough MIME (RFC 2045-2047) to show a developer what a message says: the subject, the
 * text part and its links. Quoted-printable matters most: a 64-hex token makes the
 * verification link longer than 76 characters, so it arrives split by soft line breaks.
 */
export interface ParsedMail {
  /** Top-level headers, lower-cased names, folded lines joined, encoded words not decoded. */
  headers: Map<string, string>;
  subject: string;
  from: string;
  to: string;
  messageId: string;
  text: string | undefined;
  html: string | undefined;
}

type Headers = Map<string, string>;

export function parseMail(raw: Buffer | string): ParsedMail {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const { headers, body } = splitEntity(bytes.toString('latin1'));
  const parts = collectParts(headers, body);
  const header = (name: string) => decodeHeader(headers.get(name) ?? '');
  return {
    headers,
    subject: header('subject'),
    from: header('from'),
    to: header('to'),
    messageId: headers.get('message-id') ?? '',
    text: parts.find((part) => part.type === 'text/plain')?.content,
    html: parts.find((part) => part.type === 'text/html')?.content,
  };
}

/** Absolute http(s) links, in order, without duplicates or trailing punctuation. */
export function findLinks(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"'()[\]]+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/&amp;/g, '&').replace(/[.,;:!?]+$/, '')))];
}

function splitEntity(entity: string): { headers: Headers; body: string } {
  const separator = /\r?\n\r?\n/.exec(entity);
  const head = separator ? entity.slice(0, separator.index) : entity;
  const body = separator ? entity.slice(separator.index + separator[0].length) : '';
  const headers: Headers = new Map();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function contentType(headers: Headers): { type: string; params: Map<string, string> } {
  const [type = 'text/plain', ...rest] = (headers.get('content-type') ?? 'text/plain').split(';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals > 0) {
      params.set(
        param.slice(0, equals).trim().toLowerCase(),
        param
          .slice(equals + 1)
          .trim()
          .replace(/^"|"$/g, ''),
      );
    }
  }
  return { type: type.trim().toLowerCase(), params };
}

function collectParts(headers: Headers, body: string): { type: string; content: string }[] {
  const { type, params } = contentType(headers);
  const boundary = params.get('boundary');
  if (type.startsWith('multipart/') && boundary) {
    return splitMultipart(body, boundary).flatMap((part) => {
      const entity = splitEntity(part);
      return collectParts(entity.headers, entity.body);
    });
  }
  if (type !== 'text/plain' && type !== 'text/html') return [];
  const bytes = decodeTransfer(body, headers.get('content-transfer-encoding') ?? '7bit');
  return [{ type, content: decodeCharset(bytes, params.get('charset')) }];
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.replace(/=\r?\n/g, ''));
    default:
      return Buffer.from(body, 'latin1');
  }
}

function decodeQuotedPrintable(text: string): Buffer {
  return Buffer.from(
    text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** RFC 2047 encoded words; adjacent words join without the whitespace between them. */
function decodeHeader(value: string): string {
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, kind: string, text: string) => {
      const bytes =
        kind.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return decodeCharset(bytes, charset);
    });
}
