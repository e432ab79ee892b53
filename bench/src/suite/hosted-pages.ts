/**
 * A browser as far as the hosted sign-in and consent pages need one: cookies kept from every
 * Set-Cookie and sent back, redirects not followed (each hop is checked), and a page's forms
 * read from its HTML as a browser would submit them.
 */
export interface PageResponse {
  status: number;
  /** Location resolved against the request URL, when the response is a redirect. */
  location: string | undefined;
  text: string;
}

export type Fields = [name: string, value: string][];

export class PageBrowser {
  private readonly cookies = new Map<string, string>();

  get(url: string): Promise<PageResponse> {
    return this.request('GET', url);
  }

  /** Submits `fields` as application/x-www-form-urlencoded, as an HTML form does. */
  post(url: string, fields: Fields): Promise<PageResponse> {
    return this.request('POST', url, new URLSearchParams(fields).toString());
  }

  private async request(method: string, url: string, body?: string): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    // RFC 6265 section 5.2 as far as one origin needs: Max-Age=0 deletes.
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      if (attributes.some((attribute) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(attribute)))
        this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(separator + 1).trim());
    }
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location === null ? undefined : new URL(location, url).toString(),
      text: await response.text(),
    };
  }
}

/** One HTML form: where it posts, its hidden fields, its inputs' types and its buttons' values. */
export interface HtmlForm {
  action: string;
  hidden: Fields;
  inputTypes: string[];
  buttons: { name: string | undefined; value: string | undefined }[];
}

/** The forms of a page; `pageUrl` resolves relative actions (absent action: the page itself). */
export function parseForms(html: string, pageUrl: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, attributes = '', inner = '']) => {
    const inputs = [...inner.matchAll(/<input\b([^>]*)>/gi)].map(([, input = '']) => attributesOf(input));
    return {
      action: new URL(attributesOf(attributes).action ?? pageUrl, pageUrl).toString(),
      hidden: inputs
        .filter((input) => input.type?.toLowerCase() === 'hidden' && input.name !== undefined)
        .map((input): [string, string] => [input.name!, input.value ?? '']),
      inputTypes: inputs.map((input) => (input.type ?? 'text').toLowerCase()),
      buttons: [...inner.matchAll(/<button\b([^>]*)>/gi)].map(([, button = '']) => {
        const { name, value } = attributesOf(button);
        return { name, value };
      }),
    };
  });
}

function attributesOf(source: string): Record<string, string | undefined> {
  const attributes: Record<string, string | undefined> = {};
  for (const [, name = '', doubled, single, bare] of source.matchAll(
    /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  ))
    attributes[name.toLowerCase()] = decodeEntities(doubled ?? single ?? bare ?? '');
  return attributes;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
