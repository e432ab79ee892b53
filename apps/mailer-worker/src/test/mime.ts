// Just enough MIME (RFC 2045/2046) to read what nodemailer sends: headers, multipart bodies,
// quoted-printable and base64 parts. Tests only; mailparser is not a dependency here.

export interface ParsedMail {
  headers: Map<string, string>;
  subject: string;
  from: string;
  to: string;
  messageId: string;
  text: string | undefined;
  html: string | undefined;
}

export function parseMail(raw: string): ParsedMail {
  const entity = parseEntity(raw);
  const leaves = flatten(entity);
  const header = (name: string) => entity.headers.get(name) ?? '';
  return {
    headers: entity.headers,
    subject: header('subject'),
    from: header('from'),
    to: header('to'),
    messageId: header('message-id'),
    text: leaves.find((leaf) => leaf.type === 'text/plain')?.body,
    html: leaves.find((leaf) => leaf.type === 'text/html')?.body,
  };
}

interface Entity {
  headers: Map<string, string>;
  type: string;
  body: string;
  parts: Entity[];
}

function parseEntity(raw: string): Entity {
  const normalized = raw.replace(/\r\n/g, '\n');
  const split = normalized.indexOf('\n\n');
  const headerBlock = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? '' : normalized.slice(split + 2);
  const headers = parseHeaders(headerBlock);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error('multipart without boundary');
    return { headers, type, body: '', parts: splitMultipart(body, boundary).map(parseEntity) };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  return { headers, type, body: decodeBody(body, encoding), parts: [] };
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const end = body.indexOf(`${delimiter}--`);
  const sections = (end === -1 ? body : body.slice(0, end)).split(`${delimiter}\n`);
  return sections.slice(1).map((section) => section.replace(/\n$/, ''));
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** RFC 2045 §6.7: `=` at a line end is a soft break; `=XX` is one octet. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const character = joined[index]!;
    const hex = joined.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function flatten(entity: Entity): Entity[] {
  return entity.parts.length === 0 ? [entity] : entity.parts.flatMap(flatten);
}
